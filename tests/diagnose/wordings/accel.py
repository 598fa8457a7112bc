"""The real wordings of accelerators other than NVIDIA CUDA as torch and the libraries around
it print them (torch 2.13's ROCm/HIP, XPU and MPS messages, torch_npu 2.1 and 2.6 for Ascend,
Lightning 1.5 to 2.6, accelerate 1.x), each diagnosed as its rule; and healthy lines that
come near them."""

from __future__ import annotations

TRACE = "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
LIGHTNING = "lightning.fabric.utilities.exceptions.MisconfigurationException: "
PL = "pytorch_lightning.utilities.exceptions.MisconfigurationException: "

WORDINGS = [
    # oneCCL's plugin loader (torch's xccl backend, vLLM's XPU images)
    ("oneCCL could not be initialized! Could not load any plugin.\nCannot open plugin library: "
     "libccl.so.1: cannot open shared object file\n", "oneccl-library-not-on-loader-path"),
    (TRACE + "RuntimeError: oneCCL: ze_fd_manager.cpp:143 init_device_fds: EXCEPTION: opendir "
     "failed: could not open device directory\n", "oneccl-dri-by-path-missing"),
    # torch_xla 2.x's PJRT registry, the TPU plugin loaded twice
    ("F0000 00:00:1708382221.197251   23274 pjrt_registry.cc:117] Non-OK-status: "
     "pjrt::LoadPjrtPlugin(\"tpu\", tpu_library_path).status() status: ALREADY_EXISTS: "
     "PJRT_Api already exists for device type tpu\n", "xla-device-before-spawn"),
    # Lightning 2.0.9, 2.5.0, 2.6.0 (trainer/connectors/accelerator_connector.py, fabric's
    # connector.py): the class name in backticks
    (TRACE + LIGHTNING + "`XLAAccelerator` can not run on your system since the accelerator "
     "is not available. The following accelerator(s) is available and can be passed into "
     "`accelerator` argument of `Trainer`: ['cpu'].\n", "lightning-accelerator-unavailable"),
    (TRACE + LIGHTNING + "`MPSAccelerator` can not run on your system since the accelerator "
     "is not available. The following accelerator(s) is available and can be passed into "
     "`accelerator` argument of `Trainer`: ['cpu'].\n", "lightning-accelerator-unavailable"),
    # pytorch-lightning 1.6.5 and 1.7.7: the same without backticks
    (TRACE + PL + "TPUAccelerator can not run on your system since the accelerator is not "
     "available. The following accelerator(s) is available and can be passed into "
     "`accelerator` argument of `Trainer`: ['cpu'].\n", "lightning-accelerator-unavailable"),
    (TRACE + PL + "HPUAccelerator can not run on your system since the accelerator is not "
     "available. The following accelerator(s) is available and can be passed into "
     "`accelerator` argument of `Trainer`: ['cpu', 'gpu'].\n",
     "lightning-accelerator-unavailable"),
    (TRACE + PL + "GPUAccelerator can not run on your system since the accelerator is not "
     "available. The following accelerator(s) is available and can be passed into "
     "`accelerator` argument of `Trainer`: ['cpu'].\n", "torch-without-cuda"),
    # pytorch-lightning 1.5.10 (accelerator_connector.py, utilities/device_parser.py)
    (TRACE + PL + "You passed `accelerator='tpu'`, but TPUs are not available.\n",
     "lightning-accelerator-unavailable"),
    (TRACE + PL + "You passed `accelerator='ipu'`, but IPUs are not available.\n",
     "lightning-accelerator-unavailable"),
    (TRACE + PL + "No TPU devices were found.\n", "lightning-accelerator-unavailable"),
    (TRACE + PL + "You passed `accelerator='gpu'`, but GPUs are not available.\n",
     "torch-without-cuda"),
    # Lightning 2.5.0: accelerator='hpu' without lightning-habana
    (TRACE + "ImportError: You asked to run with HPU but you are missing a required dependency. "
     "Please run `pip install lightning-habana` or seek further instructions in "
     "https://github.com/Lightning-AI/lightning-Habana/.\n", "lightning-accelerator-unavailable"),
    # Lightning 1.9.5 .. 2.6.0 (both connectors)
    (TRACE + LIGHTNING + "You set `strategy=ddp` but strategies from the DDP family are not "
     "supported on the MPS accelerator. Either explicitly set `accelerator='cpu'` or change "
     "the strategy.\n", "lightning-ddp-on-mps"),
    # torch_npu 2.1.0.post3 and 2.6.0 (ProcessGroupHCCL.cpp): the watchdog's HCCL words
    ("[rank3]:[E ProcessGroupHCCL.cpp:570] [Rank 3] Watchdog caught collective operation "
     "timeout: WorkHCCL(SeqNum=12, OpType=ALLREDUCE, Timeout(ms)=1800000) ran for 1800321 "
     "milliseconds before timing out.\n", "collective-timeout"),
    ("[rank3]:[E ProcessGroupHCCL.cpp:590] WorkHCCL(SeqNum=12, OpType=ALLREDUCE, "
     "Timeout(ms)=1800000) ran for 1800321 milliseconds before timing out.\n",
     "collective-timeout"),
    ("[rank3]:[E ProcessGroupHCCL.cpp:612] Some HCCL operations have failed or timed out. Due "
     "to the asynchronous nature of ASCEND kernels, subsequent NPU operations might run on "
     "corrupted/incomplete data.\n", "collective-timeout"),
    ("[rank3]:[F ProcessGroupHCCL.cpp:1410] [Rank 3] ProcessGroupHCCL's watchdog got stuck for "
     "480 seconds without making progress in monitoring enqueued collectives.\n",
     "nccl-watchdog-stuck"),
    # torch_npu 2.1.0.post3 and 2.6.0 (NPUCachingAllocator.cpp)
    (TRACE + "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB "
     "total capacity; 57.23 GiB already allocated; 57.23 GiB current active; 1.21 GiB free; "
     "58.81 GiB reserved in total by PyTorch) If reserved memory is >> allocated memory try "
     "setting max_split_size_mb to avoid fragmentation.\n", "accelerator-oom"),
    # CANN's runtime under torch_npu 2.1 (as LlamaFactory issue 5322 shows it), the NPU's OOM
    ("EL0004: 2024-08-28-16:15:00.358.141 Failed to allocate memory.\n        Possible Cause: "
     "Available memory is insufficient.\n        TraceBack (most recent call last):\n        "
     "rtFftsPlusTaskLaunch execute failed, reason=[driver error:out of memory][FUNC:FuncError"
     "Reason][FILE:error_message_manage.cc][LINE:53]\n", "accelerator-oom"),
    # torch_npu 2.6.0 (NPUWorkspaceAllocator)
    (TRACE + "RuntimeError: NPU out of memory. NPUWorkspaceAllocator tried to allocate 1.50 GiB"
     "(NPU 0; 60.97 GiB total capacity; 59.10 GiB already allocated)\n", "accelerator-oom"),
    # the MPS allocator's words, which accelerate 1.15 (utils/memory.py) lists as MPS OOM
    (TRACE + "RuntimeError: MPS backend out of memory (MPS allocated: 18.13 GB, other "
     "allocations: 40.00 KB, max allowed: 18.13 GB). Tried to allocate 256.00 MB on private "
     "pool. Use PYTORCH_MPS_HIGH_WATERMARK_RATIO=0.0 to disable upper limit for memory "
     "allocations (may cause system failure).\n", "accelerator-oom"),
    # XPU: torch's XPU caching allocator (torch >= 2.5; not in the CPU wheel read here) raises
    # torch.OutOfMemoryError; accelerate 1.10's memory.py counts XPU among " out of memory."
    (TRACE + "torch.OutOfMemoryError: XPU out of memory. Tried to allocate 2.00 GiB. GPU 0 has "
     "a total capacity of 15.11 GiB. Of the allocated memory 13.02 GiB is allocated by "
     "PyTorch, and 1.02 GiB is reserved by PyTorch but unallocated.\n", "accelerator-oom"),
    # Habana's bridge, as accelerate 1.10 and 1.15 (utils/memory.py) list the HPU's OOM
    (TRACE + "RuntimeError: FATAL ERROR :: MODULE:PT_DEVMEM Allocation failed\n",
     "accelerator-oom"),
    # torch 2.13's MPS tests (testing/_internal/common_methods_invocations.py) quote both
    (TRACE + "TypeError: Cannot convert a MPS Tensor to float64 dtype as the MPS framework "
     "doesn't support float64. Please use float32 instead.\n", "mps-dtype-unsupported"),
    (TRACE + "TypeError: Trying to convert ComplexDouble to the MPS backend but it does not "
     "have support for that dtype.\n", "mps-dtype-unsupported"),
    (TRACE + "TypeError: Trying to convert Float8_e4m3fn to the MPS backend but it does not "
     "have support for that dtype.\n", "mps-dtype-unsupported"),
    # torch 2.13's MPS fallback message, as its tests quote it
    (TRACE + "NotImplementedError: The operator 'aten::special_airy_ai.out' is not currently "
     "implemented for the MPS device\n", "mps-op-not-implemented"),
    # torch 2.13 (xpu/__init__.py, distributed/distributed_c10d.py)
    (TRACE + "AssertionError: Torch not compiled with XPU enabled\n", "torch-without-xpu"),
    (TRACE + "RuntimeError: Distributed package doesn't have XCCL built in\n",
     "torch-without-xpu"),
    (TRACE + "RuntimeError: Cannot re-initialize XPU in forked subprocess. To use XPU with "
     "multiprocessing, you must use the 'spawn' start method\n", "cuda-fork-after-init"),
    # torch 2.13 (distributed_c10d.py BackendConfig and _new_process_group_helper)
    (TRACE + "ValueError: We detected accelerator mps on your machine. But we don't know which "
     "communication backend to use for this accelerator. Please specify the `backend` "
     "argument in the `init_process_group` call.\n", "accelerator-no-default-backend"),
    (TRACE + "AssertionError: Unknown c10d backend type HCCL\n", "c10d-backend-not-imported"),
    (TRACE + "RuntimeError: No rendezvous handler for xla://\n", "xla-rendezvous-handler"),
    # ROCm torch: the HIP runtime's error strings behind torch's "HIP error: " prefix
    (TRACE + "RuntimeError: HIP error: no kernel image is available for execution on the "
     "device\nHIP kernel errors might be asynchronously reported at some other API call, so the "
     "stacktrace below might be incorrect.\n", "rocm-gpu-arch-unsupported"),
    (TRACE + "RuntimeError: HIP error: invalid device function\n", "rocm-gpu-arch-unsupported"),
    ("rocBLAS error: Cannot read /opt/rocm/lib/rocblas/library/TensileLibrary.dat: Illegal "
     "seek for GPU arch : gfx1032\n List of available TensileLibrary Files : \n"
     "Aborted (core dumped)\n", "rocm-gpu-arch-unsupported"),
    (TRACE + "RuntimeError: HIP error: no ROCm-capable device is detected\n", "rocm-no-gpu"),
    (TRACE + "RuntimeError: No HIP GPUs are available\n", "rocm-no-gpu"),
    (TRACE + "torch.OutOfMemoryError: HIP out of memory. Tried to allocate 20.00 MiB. GPU 0 has "
     "a total capacity of 23.98 GiB of which 0 bytes is free.\n", "cuda-oom"),
    # Habana's ProcessGroupHCCL (habana_frameworks 1.x, getHCCLDataSize): DDP broadcasting a
    # buffer of a dtype HCCL has no size for
    ("terminate called after throwing an instance of 'c10::Error'\n  what():  Getting size for "
     "given data type is not supported: 0\nException raised from getHCCLDataSize at /npu-stack/"
     "pytorch-integration/python_packages/habana_frameworks/torch/distributed/hccl/"
     "ProcessGroupHCCL.cpp:128 (most recent call first):\n", "collective-dtype-unsupported"),
    # torch_xla >= 2.1 and 1.x: the device used in the parent before xmp.spawn
    (TRACE + "RuntimeError: Runtime is already initialized. Do not use the XLA device before "
     "calling xmp.spawn.\n", "xla-device-before-spawn"),
    ("Exception in device=TPU:0: Cannot replicate if number of devices (1) is different from 8\n",
     "xla-device-before-spawn"),
    # torch's MPS kernels (mps/OperationUtils.mm): an operand left on the CPU
    ("  File \"/Users/me/venv/lib/python3.10/site-packages/torch/nn/modules/linear.py\", line "
     "116, in forward\n    return F.linear(input, self.weight, self.bias)\nRuntimeError: "
     "Placeholder storage has not been allocated on MPS device!\n", "device-mismatch"),
    # accelerate 1.x (accelerator.py) with a torch older than 2.5 on a Mac
    (TRACE + "ValueError: fp16 mixed precision with MPS device requires a Pytorch >= 2.5.0\n",
     "mps-fp16-unsupported"),
    # Metal Performance Shaders' assertions (MPSNDArray.mm), older macOS without the texture
    # argument, and its temporary arrays
    ("/AppleInternal/Library/BuildRoots/b11baf73/Library/Caches/com.apple.xbs/Sources/"
     "MetalPerformanceShaders/MPSCore/Types/MPSNDArray.mm:850: failed assertion "
     "`[MPSNDArray initWithDevice:descriptor:isTextureBacked:] Error: total bytes of NDArray > "
     "2**32'\n[1]    13512 abort      python sample.py\n", "mps-tensor-too-large"),
    ("/AppleInternal/Library/BuildRoots/a1b2/Library/Caches/com.apple.xbs/Sources/"
     "MetalPerformanceShaders/MPSCore/Types/MPSNDArray.mm:706: failed assertion "
     "`[MPSNDArray initWithDevice:descriptor:] Error: total bytes of NDArray > 2**32'\n",
     "mps-tensor-too-large"),
    ("failed assertion `[MPSTemporaryNDArray initWithDevice:descriptor:] Error: product of "
     "dimension sizes > 2**31'\n", "mps-tensor-too-large"),
    # torch 2.4 and later print the size in GiB
    (TRACE + "RuntimeError: Invalid buffer size: 19.38 GiB\n", "mps-tensor-too-large"),
    # torch 2.0's message names the macOS release
    (TRACE + "RuntimeError: MPS does not support cumsum op with int64 input. Support has been "
     "added in macOS 13.3\n", "mps-cumsum-int64"),
    # CANN's EI0006 block alone (its reasons, then its Solution line): the log ends in it
    ("EI0006: Getting socket times out. Reason: 1. The remote does not initiate a connect "
     "request. some NPUs in the cluster are abnormal.    2. The remote does not initiate a "
     "connect request because the collective communication operator is started too late or is "
     "not started by some NPU in the cluster.\n        Solution: 1. Check the rank service "
     "processes with other errors or no errors in the cluster.2. If this error is reported for "
     "all NPUs, check whether the time difference between the earliest and latest errors is "
     "greater than the connect timeout interval (120s by default). If so, adjust the timeout "
     "interval by using the HCCL_CONNECT_TIMEOUT environment variable.\n",
     "ascend-hccl-socket-timeout"),
]

HEALTHY = [
    "Using XLAAccelerator: 8 TPU cores available\n",
    "GPU available: False, used: False\nTPU available: True, using: 8 TPU cores\n",
    "HPU available: True, using: 8 HPUs\n",
    "NPU memory: 57.23 GiB allocated of 60.97 GiB; no out-of-memory this epoch\n",
    "MPS backend memory: 18.13 GB allocated, 24.00 GB recommended max\n",
    "XPU memory summary: 13.02 GiB allocated, 15.11 GiB total\n",
    "[rank0] HCCL watchdog thread started!\n",
    "[rank0] ProcessGroupHCCL watchdog thread joined.\n",
    "casting float64 tensors to float32 for the MPS backend\n",
    "torch 2.13.0+xpu: XPU enabled, XCCL built in\n",
    "rocminfo: gfx1100 found; HIP runtime 6.2 initialised\n",
    "rocBLAS: using TensileLibrary for GPU arch : gfx90a\n",
    "PYTORCH_ENABLE_MPS_FALLBACK=1 set; running on mps\n",
    "MPS: placeholder tensors allocated on MPS device (model and inputs on mps:0)\n",
    "Metal: maxBufferLength 17.18 GB; largest NDArray 2.10 GB\n",
    "HCCL_CONNECT_TIMEOUT=1200 set (EI0006 socket timeouts avoided on slow starts)\nstep 1 loss 2.3\n",
]
