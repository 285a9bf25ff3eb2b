#!/usr/bin/env python3
"""The clean-room cuda/include/cuda.h against a CUDA toolkit's cuda.h.

For every function the clean-room header declares, a program built against
each header prints the function's C++ type (typeid); for every enumerator
and CU_ constant, its value; for the structs, their sizes and offsets. The outputs must be identical, in the default
build and with CUDA_API_PER_THREAD_DEFAULT_STREAM. The toolkit-header build,
linked against the toolkit's stub libcuda.so, then runs with LD_LIBRARY_PATH
at the shim: the dynamic loader resolves every entry point it names (by
address, eagerly) from the shim, so the shim exports each versioned symbol a
toolkit-built binary asks for.

usage: abi_check.py CXX HW_INCLUDE SHIM_DIR [CUDA_ROOT]
Exit 0 ok, 1 a difference, 77 (skipped) without a toolkit.
"""
import os
import re
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    cxx, mine, shim = sys.argv[1:4]
    cuda = sys.argv[4] if len(sys.argv) > 4 else "/usr/local/cuda"
    real = os.path.join(cuda, "include")
    stubs = os.path.join(cuda, "lib64", "stubs")
    if not os.path.isfile(os.path.join(real, "cuda.h")) or not os.path.isdir(stubs):
        print("no CUDA toolkit: skipped")
        return 77
    text = open(os.path.join(mine, "cuda.h")).read()
    funcs = re.findall(r"CUresult CUDAAPI (cu\w+)\(", text)
    consts = re.findall(r"^\s+(CU\w+)\s*=", text, re.M) + re.findall(r"^#define (CU_\w+) ", text, re.M)
    src = ['#include "cuda.h"', "#include <cstdio>", "#include <cstdint>", "#include <cstddef>", "#include <typeinfo>", "int main() {"]
    src += [f'std::printf("%s %s %d\\n", "{f}", typeid(&{f}).name(), &{f} != nullptr);' for f in funcs]
    src += [f'std::printf("%s %llu\\n", "{c}", (unsigned long long)(uintptr_t){c});' for c in consts]
    layouts = ["sizeof(CUlaunchConfig)", "offsetof(CUlaunchConfig, hStream)", "offsetof(CUlaunchConfig, attrs)",
               "offsetof(CUlaunchConfig, numAttrs)", "sizeof(CUlaunchAttribute)", "offsetof(CUlaunchAttribute, value)",
               "alignof(CUlaunchAttributeValue)", "offsetof(CUlaunchAttributeValue, clusterDim.z)",
               "offsetof(CUlaunchAttributeValue, launchCompletionEvent.flags)", "sizeof(CUctxCreateParams)",
               "offsetof(CUctxCreateParams, cigParams)", "sizeof(CUDA_ARRAY3D_DESCRIPTOR)",
               "offsetof(CUDA_ARRAY3D_DESCRIPTOR, Flags)", "sizeof(CUDA_RESOURCE_DESC)", "offsetof(CUDA_RESOURCE_DESC, flags)",
               "offsetof(CUDA_RESOURCE_DESC, res.pitch2D.pitchInBytes)", "sizeof(CUDA_TEXTURE_DESC)",
               "offsetof(CUDA_TEXTURE_DESC, borderColor)", "sizeof(CUmemPoolProps)",
               "offsetof(CUmemPoolProps, win32SecurityAttributes)", "offsetof(CUmemPoolProps, maxSize)",
               "offsetof(CUmemPoolProps, usage)", "sizeof(CUmemAccessDesc)", "sizeof(CUDA_MEM_ALLOC_NODE_PARAMS)",
               "offsetof(CUDA_MEM_ALLOC_NODE_PARAMS, accessDescs)", "offsetof(CUDA_MEM_ALLOC_NODE_PARAMS, dptr)",
               "sizeof(CUDA_MEMCPY3D_PEER)", "offsetof(CUDA_MEMCPY3D_PEER, srcContext)",
               "offsetof(CUDA_MEMCPY3D_PEER, dstContext)", "offsetof(CUDA_MEMCPY3D_PEER, Depth)", "sizeof(CUdevprop)",
               "offsetof(CUdevprop, textureAlign)"]
    src += [f'std::printf("%s %zu\\n", "{e}", (size_t)({e}));' for e in layouts]
    src.append("}")
    failures = 0
    with tempfile.TemporaryDirectory() as d:
        cpp = os.path.join(d, "abi.cpp")
        open(cpp, "w").write("\n".join(src) + "\n")
        for defs in ([], ["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"]):
            outs = []
            for inc, lib in ((mine, shim), (real, stubs)):
                exe = os.path.join(d, "abi_" + str(len(outs)))
                subprocess.run([cxx, "-std=c++17", "-Wno-deprecated-declarations", *defs, "-I", inc, cpp, "-o", exe,
                                "-L", lib, "-lcuda"], check=True)
                r = subprocess.run([exe], env=dict(os.environ, LD_LIBRARY_PATH=shim), capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"{' '.join(defs) or 'default'} build against {inc}: exit {r.returncode}: {r.stderr}")
                    failures += 1
                outs.append(r.stdout.splitlines())
            diff = [(a, b) for a, b in zip(*outs) if a != b]
            if diff or len(outs[0]) != len(outs[1]):
                print(f"{' '.join(defs) or 'default'}: {len(diff)} differences, e.g. {diff[:3]}")
                failures += 1
        print(f"{len(funcs)} functions, {len(consts)} constants compared with {real}: {failures} problems")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
