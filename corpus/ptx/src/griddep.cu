// corpus-arch: sm_90
// Theme: sm_90 programmatic dependent launch (griddepcontrol.wait /
// .launch_dependents) and cluster special registers.
#include <cooperative_groups.h>
extern "C" __global__ void griddep(const float* in, float* out, int n)
{
    cudaGridDependencySynchronize();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 3.0f;
    cudaTriggerProgrammaticLaunchCompletion();
    if (i == 0) out[n] = (float)cooperative_groups::this_cluster().dim_blocks().x;
}
