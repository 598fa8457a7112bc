"""The wordings that building and loading extensions and kernels really print (torch's
cpp_extension and Inductor at 2.13, Triton, nvcc's host_config.h, NumPy 1.26 / 2.0 / 2.3
headers, flash-attn 2.5 / 2.8, xFormers, bitsandbytes 0.37 to 0.49), diagnosed as their
rules, and the healthy lines next to them that must not be.  Each text is copied from the
library's source (or, for compilers and linkers, their own output) named beside it."""

from __future__ import annotations

from wordings import TRACE, raised

WORDINGS = [
    # torch 2.13 utils/cpp_extension.py _check_cuda_version: no CUDA_HOME at all (setup.py build)
    (raised("ext = CUDAExtension('fused', ['fused.cu'])",
             "RuntimeError: CUDA was not found on the system, please set the CUDA_HOME or the "
             "CUDA_PATHenvironment variable or add NVCC to your system PATH. The extension "
             "compilation will fail."),
     "cuda-home-missing"),
    # torch 2.13 utils/cpp_extension.py _check_cuda_version: CUDA_HOME without bin/nvcc
    (raised("self._check_cuda_version(compiler_name, compiler_version)",
             "FileNotFoundError: nvcc not found at '/usr/local/cuda/bin/nvcc'. Ensure CUDA path "
             "'/usr/local/cuda' is correct."),
     "cuda-home-missing"),
    # torch 1.13 to 2.5 cpp_extension: subprocess.check_output([nvcc, '--version']) unchecked
    (raised("cuda_version_str = subprocess.check_output([nvcc, '--version']).strip()",
             "FileNotFoundError: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'"),
     "cuda-home-missing"),
    # ninja's shell in a JIT build (torch cpp_extension.load) when CUDA_HOME has no nvcc
    ("[1/3] /usr/local/cuda/bin/nvcc -c fused_adam_frontend.cu -o fused_adam.cuda.o\n"
     "FAILED: multi_tensor_adam.cuda.o\n"
     "/bin/sh: 1: /usr/local/cuda/bin/nvcc: not found\n"
     "ninja: build stopped: subcommand failed.\n",
     "cuda-home-missing"),
    # CUDA 12.1 crt/host_config.h with clang 16 as the host compiler
    ("/usr/local/cuda/include/crt/host_config.h:151:2: error: -- unsupported clang version! "
     "clang version must be less than 16 and greater than 3.2 . The nvcc flag "
     "'-allow-unsupported-compiler' can be used to override this version check\n"
     "ninja: build stopped: subcommand failed.\n",
     "nvcc-gcc-too-new"),
    # CUDA 11.x crt/host_config.h on Windows with a newer Visual Studio
    ("C:\\Program Files\\NVIDIA GPU Computing Toolkit\\CUDA\\v11.8\\include\\crt/host_config.h"
     "(153): fatal error C1189: #error:  -- unsupported Microsoft Visual Studio version! Only "
     "the versions between 2017 and 2022 (inclusive) are supported!\n",
     "nvcc-gcc-too-new"),
    # torch 2.13 utils/cpp_extension.py _check_cuda_version (binary builds, Linux)
    (raised("self._check_cuda_version(compiler_name, compiler_version)",
             "RuntimeError: The current installed version of g++ (13.2.0) is greater than the "
             "maximum required version by CUDA 12.1. Please make sure to use an adequate version "
             "of g++ (>=6.0.0, <13.0)."),
     "nvcc-gcc-too-new"),
    # Triton's launcher build (or an extension) compiled with clang: no Python headers
    ("/tmp/tmpa1b2c3/main.c:6:10: fatal error: 'Python.h' file not found\n"
     "#include <Python.h>\n         ^~~~~~~~~~\n1 error generated.\n" + TRACE
     + "    subprocess.check_call(cc_cmd, stdout=subprocess.DEVNULL)\n"
     "subprocess.CalledProcessError: Command '['/usr/bin/clang', '/tmp/tmpa1b2c3/main.c']' "
     "returned non-zero exit status 1.\n",
     "python-headers-missing"),
    # MSVC building a C++ extension without the Python headers
    ("main.c(5): fatal error C1083: Cannot open include file: 'Python.h': No such file or "
     "directory\nerror: command 'cl.exe' failed with exit code 2\n",
     "python-headers-missing"),
    # Triton's launcher linked by LLVM's lld
    ("ld.lld: error: unable to find library -lcuda\n"
     "clang: error: linker command failed with exit code 1 (use -v to see invocation)\n",
     "libcuda-not-linkable"),
    # torch 2.13 _inductor/exc.py InvalidCxxCompiler(compiler), raised from cpp_builder on Windows
    (raised("out = compiled(x)",
             "torch._inductor.exc.InductorError: InvalidCxxCompiler: Compiler: cl is not found."),
     "no-c-compiler"),
    # torch 2.13 __init__.py _preload_cuda_deps: the hyphenated nvrtc-builtins library
    (raised("_load_global_deps()",
             "ValueError: libnvrtc-builtins.so.*[0-9] not found in the system path "
             "['/app', '/usr/lib/python311.zip', '/usr/lib/python3.11']"),
     "torch-cuda-wheels-missing"),
    # bitsandbytes 0.41 built for CUDA 11 on a CUDA 12 machine
    (raised("import bitsandbytes as bnb",
             "OSError: libcusparse.so.11: cannot open shared object file: No such file or "
             "directory"),
     "cuda-runtime-library-missing"),
    # an extension (flash_attn_2_cuda) imported before torch
    (raised("import flash_attn_2_cuda as flash_attn_cuda",
             "ImportError: libc10.so: cannot open shared object file: No such file or directory"),
     "cuda-runtime-library-missing"),
    # an extension built for another torch: the type info of a c10 class
    (raised("import fused_layer_norm_cuda",
             "ImportError: /venv/lib/python3.10/site-packages/fused_layer_norm_cuda.cpython-310-"
             "x86_64-linux-gnu.so: undefined symbol: _ZTIN3c1021AutogradMetaInterfaceE"),
     "extension-abi-mismatch"),
    # ... a c10d (torch.distributed) symbol
    (raised("import my_comm_ext",
             "ImportError: /venv/lib/python3.11/site-packages/my_comm_ext.so: undefined symbol: "
             "_ZN4c10d16ProcessGroupNCCL9allreduceERSt6vectorIN2at6TensorESaIS3_EE"),
     "extension-abi-mismatch"),
    # ... and macOS's dlopen wording
    (raised("import torchvision._C",
             "ImportError: dlopen(/venv/lib/python3.11/site-packages/torchvision/_C.so, 0x0002): "
             "Symbol not found: __ZN3c1017RegisterOperatorsD1Ev"),
     "extension-abi-mismatch"),
    # k2 1.14+ k2/python/k2/__init__.py: its own check of the torch it was built with
    (raised("raise ImportError(",
             "ImportError: k2 was built using PyTorch 1.11.0+cu102\n"
             "But you are using PyTorch 1.10.0+cu102 to run it"),
     "extension-abi-mismatch"),
    # bitsandbytes 0.45 to 0.49 cextension.py: the first native call after a failed load
    (raised("optimizer = bnb.optim.AdamW8bit(model.parameters(), lr=1e-4)",
             "RuntimeError: \n🚨 CUDA VERSION MISMATCH 🚨\nRequested CUDA version:          12.8\n"
             "Attempted to use bitsandbytes native library functionality but it's not "
             "available.\n\nNative code method attempted to call: lib.cadam32bit_grad_fp32()"),
     "bitsandbytes-without-cuda"),
    # bitsandbytes 0.45 to 0.49: a CUDA runtime library missing (_format_dependency_error)
    ("RuntimeError: \n"
     "🚨 CUDA SETUP ERROR: Missing dependency: libcudart.so.12 🚨\n\n"
     "CUDA 12.x runtime libraries were not found in the LD_LIBRARY_PATH.\n",
     "bitsandbytes-without-cuda"),
    # bitsandbytes 0.42 / 0.43: lib is None, an 8-bit matmul
    (raised("out = bnb.matmul(A, B, state=state)",
             "AttributeError: 'NoneType' object has no attribute 'cigemmlt_turing_32'"),
     "bitsandbytes-without-cuda"),
    # xFormers ops/fmha/common.py (the reason beside "No operator found"), a fixed spelling
    ("NotImplementedError: No operator found for `memory_efficient_attention_forward` with "
     "inputs:\n     query       : shape=(1, 2, 1, 40) (torch.float16)\n"
     "`cutlassF-pt` is not supported because:\n    xFormers wasn't built with CUDA support\n",
     "xformers-torch-mismatch"),
    # Cython's size check in pycocotools 2.0.x _mask.pyx, built against NumPy >= 1.20 and
    # run with NumPy 1.19
    (raised("from . import mask as maskUtils",
             "ValueError: numpy.ndarray size changed, may indicate binary incompatibility. "
             "Expected 88 from C header, got 80 from PyObject"),
     "numpy-too-old"),
    # NumPy 2.0.2 / 2.3.2 __multiarray_api.h: a module built with NumPy 2 on NumPy 1.x
    ("RuntimeError: module was compiled against NumPy C-API version 0x10 (NumPy 1.23) but the "
     "running NumPy has C-API version 0xe. Check the section C-API incompatibility at the "
     "Troubleshooting ImportError section at https://numpy.org/devdocs/user/troubleshooting-"
     "importerror.html#c-api-incompatibility for indications on how to solve this problem.\n"
     + TRACE + "    import cv2\n"
     "ImportError: numpy._core.multiarray failed to import\n",
     "numpy-too-old"),
    # NumPy 1.26.4 __ufunc_api.h import_umath, a NumPy 1.x module on NumPy 2
    (raised("import scipy.special",
             "ImportError: numpy.core.umath failed to import"),
     "numpy-abi"),
    # older NumPy 1.x headers' _import_umath
    ("AttributeError: _UFUNC_API not found\n" + TRACE + "    import old_ext\n"
     "ImportError: numpy.core.umath failed to import\n",
     "numpy-abi"),
    # a pickle written under NumPy 2 read with NumPy 1.x (numpy._core is NumPy 2's package)
    (raised("state = torch.load(path, weights_only=False)",
             "ModuleNotFoundError: No module named 'numpy._core.multiarray'"),
     "numpy-pickle-from-numpy2"),
    # Triton's bundled ptxas (torch 2.6 / triton 3.2) on an sm_120 GPU
    ("torch._inductor.exc.InductorError: PTXASError: PTXAS error: Internal Triton PTX codegen "
     "error\n`ptxas` stderr:\nptxas fatal   : Value 'sm_120a' is not defined for option "
     "'gpu-name'\n",
     "no-kernel-image"),
    # torchaudio 0.2's sox module and torchaudio 2.x's library, built for another torch
    (TRACE + "ImportError: /usr/local/lib/python3.5/dist-packages/_torch_sox.cpython-35m-x86_64"
     "-linux-gnu.so: undefined symbol: _ZN2at19UndefinedTensorImpl10_singletonE\n",
     "torchvision-torch-mismatch"),
    (TRACE + "OSError: /venv/lib/python3.10/site-packages/torchaudio/lib/libtorchaudio.so: "
     "undefined symbol: _ZNK5torch8autograd4Node4nameEv\n", "torchvision-torch-mismatch"),
    # the dispatcher (torch 2.13) for an operator a CPU torchaudio or torchvision registered
    (TRACE + "NotImplementedError: Could not run 'torchaudio::rnnt_loss' with arguments from "
     "the 'CUDA' backend. This could be because the operator doesn't exist for this backend\n",
     "torchvision-torch-mismatch"),
    (TRACE + "NotImplementedError: Could not run 'torchvision::nms' with arguments from the "
     "'CUDA' backend.\n", "torchvision-torch-mismatch"),
    # a torchaudio built against the system's codecs without one of them (pytorch/audio
    # issues 1461, 2614): not a torch mismatch
    (TRACE + "OSError: /usr/lib/python3.9/site-packages/torchaudio/_torchaudio.so: undefined "
     "symbol: WavpackGetMode\n", "python-exception"),
    # DGL 2.x (graphbolt/__init__.py: load_graphbolt), for a torch it has no build for
    (TRACE + "FileNotFoundError: Cannot find DGL C++ graphbolt library at /venv/lib/python3.12/"
     "site-packages/dgl/graphbolt/libgraphbolt_pytorch_2.9.0.so\n", "extension-abi-mismatch"),
    (TRACE + "ImportError: Cannot load Graphbolt C++ library\n", "extension-abi-mismatch"),
    # DGL 2.x (sparse/__init__.py: load_dgl_sparse), the same for its sparse library
    (TRACE + "FileNotFoundError: Cannot find DGL C++ sparse library at /opt/conda/lib/"
     "python3.11/site-packages/dgl/dgl_sparse/libdgl_sparse_pytorch_2.4.0.post301.so\n",
     "extension-abi-mismatch"),
    # torch_sparse/__init__.py (torch.ops.torch_sparse.cuda_version()) when its library did
    # not load: torch/_ops.py's lookup of an unregistered operator
    (raised("op = torch._C._jit_get_operation(qualified_op_name)",
             "RuntimeError: No such operator torch_sparse::cuda_version"),
     "extension-abi-mismatch"),
    # torch >= 1.13's _OpNamespace.__getattr__ (torch/_ops.py) for the same lookup
    (raised("return self.cuda_version_fn()",
             "AttributeError: '_OpNamespace' 'torch_sparse' object has no attribute "
             "'cuda_version'"),
     "extension-abi-mismatch"),
    # setuptools build_ext spawning $CUDA_HOME/bin/nvcc for a source build of torch-scatter
    ("  No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\n  running build_ext\n"
     "  error: command '/usr/local/cuda/bin/nvcc' failed: No such file or directory\n"
     "  ERROR: Failed building wheel for torch-scatter\nFailed to build torch-scatter\n",
     "cuda-home-missing"),
    # older distutils' spawn, same build
    ("  unable to execute '/usr/local/cuda/bin/nvcc': No such file or directory\n"
     "  error: command '/usr/local/cuda/bin/nvcc' failed with exit status 1\n", "cuda-home-missing"),
    # Triton 3.x language/semantic.py: an FP8 (e4m3) cast or load compiled for a GPU below
    # sm_89, inside the CompilationError block that torch.compile, vLLM and SGLang show
    ("triton.compiler.errors.CompilationError: at 1:0:\ndef triton_poi_fused__to_copy_0("
     "in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):\n^\nValueError(\"type fp8e4nv not "
     "supported in this architecture. The supported fp8 dtypes are ('fp8e4b15', 'fp8e5')\")\n",
     "fp8-gpu-too-old"),
    # Triton 3.x runtime/cache.py: the compiled kernel read back from a cache folder another
    # node rewrote (torch 2.6 InductorError wrapping it)
    ("[rank6]: torch._inductor.exc.InductorError: FileNotFoundError: [Errno 2] No such file or "
     "directory: '/home1/user/triton_cache_255441/E5DAZZK6P4ZXQ3VKJPNIEWZ7P4HLUH2VX7O2QO7USGHM5X"
     "QCLM6A/triton_red_fused_arange_bitwise_and_eq_ge_index_permute_sum_view_0.hsaco'\n",
     "inductor-cache-race"),
    # cuDNN 9 ships its engines as split libraries; TransformerEngine's core library (and
    # torch's cuDNN wheel users) load them by name
    (TRACE + "OSError: libcudnn_adv.so.9: cannot open shared object file: No such file or "
     "directory\n", "cuda-runtime-library-missing"),
    # torch 1.13 utils/cpp_extension.py check_compiler_ok_for_platform: no c++ on PATH
    (TRACE + "  File \"/opt/conda/lib/python3.10/site-packages/torch/utils/cpp_extension.py\", "
     "line 351, in check_compiler_ok_for_platform\n    which = subprocess.check_output(['which', "
     "compiler], stderr=subprocess.STDOUT)\nsubprocess.CalledProcessError: Command '['which', "
     "'c++']' returned non-zero exit status 1.\n",
     "no-c-compiler"),
    # causal-conv1d 1.1 setup.py get_cuda_bare_metal_version with torch's CUDA_HOME None
    ("      Traceback (most recent call last):\n        File \"/tmp/pip-install-x/causal-conv1d_1/"
     "setup.py\", line 70, in get_cuda_bare_metal_version\n          raw_output = subprocess."
     "check_output([cuda_dir + \"/bin/nvcc\", \"-V\"], universal_newlines=True)\n      "
     "TypeError: unsupported operand type(s) for +: 'NoneType' and 'str'\n",
     "cuda-home-missing"),
    # gcc on torch 2.x's ATen/cuda/CUDAContext.h with no CUDA toolkit headers (setup.py build)
    ("/venv/lib/python3.10/site-packages/torch/include/c10/cuda/CUDAStream.h:6:10: fatal error: "
     "cuda_runtime_api.h: No such file or directory\n #include <cuda_runtime_api.h>\n"
     "compilation terminated.\nerror: command 'gcc' failed with exit status 1\n",
     "cuda-home-missing"),
    # bitsandbytes 0.37 to 0.41: the CPU library called for a GPU function (ctypes' __getattr__)
    (raised("func = self.__getitem__(name)",
             "AttributeError: /usr/local/lib/python3.10/dist-packages/bitsandbytes/"
             "libbitsandbytes_cpu.so: undefined symbol: cget_col_row_stats"),
     "bitsandbytes-without-cuda"),
    # torch 2.x utils/cpp_extension.py _run_ninja_build's wrapper, the compiler's output cut off
    (raised("subprocess.run(",
             "subprocess.CalledProcessError: Command '['ninja', '-v']' returned non-zero exit "
             "status 1.\n\nThe above exception was the direct cause of the following exception:"
             "\n\nRuntimeError: Error compiling objects for extension"),
     "extension-build-failed"),
    # CUDA 11.7's own ptxas asked for sm_90 in an extension's ninja build
    ("FAILED: /tmp/ext/build/temp.linux-x86_64-cpython-310/kernel.o\n"
     "ptxas fatal   : Value 'sm_90' is not defined for option 'gpu-name'\n"
     "ninja: build stopped: subcommand failed.\n",
     "nvcc-arch-unsupported"),
    # torch 2.2 aten/src/ATen/native/cuda/Blas.cpp _scaled_mm_out_cuda (float8 training on a
    # GPU below sm_90; torch 2.3 added sm_89 and reworded it)
    (raised("output, output_amax = torch._scaled_mm(",
             "RuntimeError: torch._scaled_mm is only supported on devices with compute "
             "capability >= 9.0)"),
     "fp8-gpu-too-old"),
    # ColossalAI without its built kernels: the prebuilt op's import, and its JIT fallback
    ("Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
     "    from colossalai._C import fused_optim\nImportError: cannot import name 'fused_optim' "
     "from 'colossalai._C' (unknown location)\n", "colossalai-kernels-not-built"),
    ("ModuleNotFoundError: No module named 'colossalai._C.cpu_adam_x86'\n\nDuring handling of "
     "the above exception, another exception occurred:\n\nTraceback (most recent call last):\n"
     "  File \"train.py\", line 90, in main\nFileNotFoundError: [Errno 2] No such file or "
     "directory: '/usr/lib/python3/site-packages/colossalai/kernel/extensions/csrc/cuda/"
     "cpu_adam.cpp'\n", "colossalai-kernels-not-built"),
    # GPT-NeoX megatron/fused_kernels/__init__.py load_fused_kernels (current releases)
    ("\n\nNo module named 'scaled_upper_triang_masked_softmax_cuda'\n" + "=" * 100 + "\nERROR: "
     "Fused kernels configured but not properly installed. Please run `pip install /home/u/gpt-"
     "neox/megatron/fused_kernels` to install them\n" + "=" * 100 + "\n",
     "megatron-fused-softmax-kernels-missing"),
    # CPython's from-import of an unbuilt _C in a source checkout (pytorch3d)
    ("Traceback (most recent call last):\n  File \"/home/u/pytorch3d/pytorch3d/renderer/blending"
     ".py\", line 10, in <module>\n    from pytorch3d import _C\nImportError: cannot import name "
     "'_C' from 'pytorch3d' (/home/u/pytorch3d/pytorch3d/__init__.py)\n",
     "compiled-module-not-built"),

    # repositories' own CUDA ops by their bare names (never built): Mask2Former's
    # ops/functions/ms_deform_attn_func.py, 3D Gaussian Splatting's scene/gaussian_model.py
    # (the package folder found, its built _C not), instant-nsr-pl's tiny-cuda-nn import
    ("Traceback (most recent call last):\n  File \"/Mask2Former/mask2former/modeling/"
     "pixel_decoder/ops/functions/ms_deform_attn_func.py\", line 22, in <module>\n    import "
     "MultiScaleDeformableAttention as MSDA\nModuleNotFoundError: No module named "
     "'MultiScaleDeformableAttention'\n", "compiled-module-not-built"),
    ("Traceback (most recent call last):\n  File \"train.py\", line 16, in <module>\n    from "
     "gaussian_renderer import render, network_gui\n  File \"/gaussian-splatting/scene/"
     "gaussian_model.py\", line 19, in <module>\n    from simple_knn._C import distCUDA2\n"
     "ModuleNotFoundError: No module named 'simple_knn._C'\n", "compiled-module-not-built"),
    ("Traceback (most recent call last):\n  File \"/gaussian-splatting/gaussian_renderer/"
     "__init__.py\", line 14, in <module>\n    from diff_gaussian_rasterization import "
     "GaussianRasterizationSettings, GaussianRasterizer\nModuleNotFoundError: No module named "
     "'diff_gaussian_rasterization'\n", "compiled-module-not-built"),
    ("Traceback (most recent call last):\n  File \"/instant-nsr-pl/models/network_utils.py\", "
     "line 7, in <module>\n    import tinycudann as tcnn\nModuleNotFoundError: No module named "
     "'tinycudann'\n", "compiled-module-not-built"),
    # Mask2Former / MaskDINO / detrex / OneFormer ops/setup.py get_extensions
    ("No CUDA runtime is found, using CUDA_HOME='/usr/local/cuda'\nTraceback (most recent call "
     "last):\n  File \"setup.py\", line 47, in get_extensions\n    raise NotImplementedError('No "
     "CUDA runtime is found. Please set FORCE_CUDA=1 or test it by running torch.cuda."
     "is_available().')\nNotImplementedError: No CUDA runtime is found. Please set "
     "FORCE_CUDA=1 or test it by running torch.cuda.is_available().\n", "ops-setup-sees-no-cuda"),
    ("Traceback (most recent call last):\n  File \"setup.py\", line 45, in get_extensions\n"
     "    raise NotImplementedError('CUDA_HOME is None. Please set environment variable "
     "CUDA_HOME.')\nNotImplementedError: CUDA_HOME is None. Please set environment variable "
     "CUDA_HOME.\n", "cuda-home-missing"),
]


HEALTHY = [
    # PyG 2.x (torch_geometric/typing.py) going on without an optional extension of another
    # torch, and torchvision's image extension on macOS: warnings of runs that go on
    "/opt/conda/lib/python3.10/site-packages/torch_geometric/typing.py:54: UserWarning: An "
    "issue occurred while importing 'torch-scatter'. Disabling its usage. Stacktrace: /opt/"
    "conda/lib/python3.10/site-packages/torch_scatter/_version_cuda.so: undefined symbol: "
    "_ZN5torch3jit17parseSchemaOrNameERKSs\n  warnings.warn(f\"An issue occurred while "
    "importing 'torch-scatter'. \"\nEpoch 1: loss 0.31\nTraining completed.\n",
    "/venv/lib/python3.11/site-packages/torchvision/io/image.py:13: UserWarning: Failed to load "
    "image Python extension: 'dlopen(/venv/lib/python3.11/site-packages/torchvision/image.so, "
    "0x0006): Symbol not found: __ZN3c1017RegisterOperatorsD1Ev\n  Referenced from: <CFDC5F9E"
    "> /venv/lib/python3.11/site-packages/torchvision/image.so\n  Expected in:     <4F0A3E1B> "
    "/venv/lib/python3.11/site-packages/torch/lib/libc10.dylib'\n  warn(\nEpoch 1: loss 0.31\n"
    "Training completed.\n",
    # torchvision's image extension failing to load is a warning; the run goes on
    "UserWarning: Failed to load image Python extension: '/venv/lib/python3.10/site-packages/"
    "torchvision/image.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev'\nstep 1 loss 2.3\n",
    "DGL graphbolt library loaded from dgl/graphbolt/libgraphbolt_pytorch_2.4.0.so\n",
    "DGL C++ sparse library found at dgl/dgl_sparse/libdgl_sparse_pytorch_2.4.0.so\n",
    "torch_sparse operators registered: torch_sparse::cuda_version, torch_sparse::spmm\n",
    "  /usr/local/cuda/bin/nvcc -c csrc/cuda/scatter_cuda.cu -o build/scatter_cuda.o\n",
    # torch 2.13 cpp_extension: a minor CUDA mismatch it accepts (a warning)
    "The detected CUDA version (12.4) has a minor version mismatch with the version that was "
    "used to compile PyTorch (12.1). Most likely this shouldn't be a problem.\n"
    "step 100: loss 2.31\n",
    "nvcc found at '/usr/local/cuda/bin/nvcc'; CUDA path '/usr/local/cuda' is correct\n",
    "The current installed version of g++ (11.4.0) is within the range required by CUDA 12.1\n",
    "clang version 15 is supported by this CUDA release\n",
    "Python.h found in /usr/include/python3.11\n",
    "ld.lld: found library -lcuda in /usr/lib/x86_64-linux-gnu\n",
    "Compiler: g++ is found at /usr/bin/g++\n",
    "libnvrtc-builtins.so.12.4 found in the system path\n",
    "loaded libcusparse.so.12 and libc10.so from site-packages\n",
    "Symbol found: __ZN3c1017RegisterOperatorsD1Ev\n",
    "bitsandbytes native library functionality is available (CUDA 12.4)\n",
    "xFormers was built with CUDA support (cutlassF, flshattF available)\n",
    "module was compiled against NumPy C-API version 0x10 (NumPy 1.23); running NumPy 2.1.3\n",
    "numpy.core.umath imported\n",
    "numpy 2.1.3: numpy._core loaded\n",
    "ptxas info    : Used 64 registers, 416 bytes cmem[0] for sm_90a\n",
    # PyG 2.3+ torch_geometric/typing.py: an optional extension it goes on without
    "UserWarning: An issue occurred while importing 'torch-sparse'. Disabling its usage. "
    "Stacktrace: Detected that PyTorch and torch_sparse were compiled with different CUDA "
    "versions. PyTorch has CUDA version 12.1 and torch_sparse has CUDA version 11.8.\n",
    # bitsandbytes 0.37 to 0.41 cextension.py at import on Windows (printed, the run goes on)
    "argument of type 'WindowsPath' is not iterable\n",
    "UserWarning: Attempted to use ninja as the BuildExtension backend but we could not find "
    "ninja.. Falling back to using the slow distutils backend.\n",
]
