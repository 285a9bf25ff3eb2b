// Theme: texture objects: tex1Dfetch (tex.1d with integer coordinates) and
// normalised/filtered 2D fetches through a cudaTextureObject_t (.u64) parameter.
extern "C" __global__ void tex_fetch(cudaTextureObject_t t1, cudaTextureObject_t t2, float* out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float a = tex1Dfetch<float>(t1, i);
    float b = tex2D<float>(t2, (i % 8) + 0.5f, (i / 8) + 0.5f);
    float4 c = tex2D<float4>(t2, 0.25f, 0.75f);
    out[i] = a + b + c.w;
}
