"""The wordings torch's own distributed APIs use for a failure (DDP, FSDP and FSDP2, DTensor,
pipelining, torch.distributed.checkpoint, torch.load, collectives' argument checks, Dynamo),
release by release, each diagnosed as its rule; and healthy lines that look like them, which
must not be."""

from __future__ import annotations

TRACE = ("Traceback (most recent call last):\n"
         "  File \"/workspace/train.py\", line 88, in <module>\n"
         "    main()\n")

WORDINGS = [
    # torch >= 2.1 FSDP's check of its module before the first forward
    ("[rank0]: RuntimeError: An FSDP-managed module unexpectedly has parameters on cpu. Make "
     "sure to move the module to cuda:0 before training.\n", "fsdp-module-on-cpu"),
    # an init_method of HOST:PORT (no scheme reads as an empty one)
    ("    raise RuntimeError(f\"No rendezvous handler for {result.scheme}://\")\nRuntimeError: "
     "No rendezvous handler for ://\n", "init-method-malformed"),
    # a torch with no distributed support at all: even its core names are missing
    (TRACE + "ImportError: cannot import name 'ReduceOp' from 'torch.distributed' (/usr/lib/"
     "python3.8/dist-packages/torch/distributed/__init__.py)\n", "torch-without-distributed"),
    # torch.distributed's get_node_local_rank (torch >= 2.5) outside a launcher
    (
     "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
     "<module>\nRuntimeError: LOCAL_RANK is not in the environment. Consider passing "
     "fallback_rank to allow `get_node_local_rank` to work, assuming you are not running "
     "in a multi-device context and want the code to run locally instead.\n",
     "not-launched"),
    # torch elastic's port check
    (
     "RuntimeError: on 10.0.0.1, port: 29500 already in use\n",
     "address-in-use"),
    # torch elastic's static rendezvous
    (
     "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. "
     "1/2 clients joined.\nRuntimeError: timed out waiting for all 2 members to join\n",
     "store-timeout"),
    # torch's lazy CUDA init for a device past the visible ones
    (
     "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
     "<module>\ntorch.cuda.DeferredCudaCallError: CUDA call failed lazily at "
     "initialization with error: device >= 0 && device < num_gpus INTERNAL ASSERT FAILED "
     "at \"../aten/src/ATen/cuda/CUDAContext.cpp\":50, please report a bug to PyTorch. "
     "device=1, num_gpus=1\n",
     "no-cuda-device"),
    # torch 2.1 aten/src/ATen/cuda/CUDABlas.cpp: a bf16 batched GEMM on a V100
    ("RuntimeError: CUDA error: CUBLAS_STATUS_NOT_SUPPORTED when calling "
     "`cublasGemmStridedBatchedExFix(handle, opa, opb, m, n, k, (void*)(&falpha), a, "
     "CUDA_R_16BF, lda, stridea, b, CUDA_R_16BF, ldb, strideb, (void*)(&fbeta), c, CUDA_R_16BF, "
     "ldc, stridec, num_batches, CUDA_R_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP)`\n",
     "bf16-unsupported"),
    # torch's CUDA hooks without a driver
    (
     "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
     "<module>\nRuntimeError: CUDA driver initialization failed, you might not have a "
     "CUDA gpu.\n",
     "torch-without-cuda"),
    # monitored_barrier on NCCL
    (
     "[rank0]: ValueError: monitored_barrier is only implemented for GLOO backend.\n",
     "backend-lacks-collective"),
    # a bitwise reduction on NCCL
    (
     "[rank1]: RuntimeError: Cannot use ReduceOp.BOR with NCCL\n",
     "backend-lacks-collective"),
    # gloo on an MPS tensor
    (
     "[rank0]: RuntimeError: ProcessGroupGloo::allreduce: unsupported device type mps\n",
     "gloo-accelerator-tensor"),
    # gather on the root without its list
    (
     "[rank0]: ValueError: Argument ``gather_list`` must be specified on destination "
     "rank.\n",
     "collective-list-on-non-root"),
    # all_gather_into_tensor with a wrong output
    (
     "[rank2]: ValueError: output tensor size must be equal to world_size times input "
     "tensor size\n",
     "collective-output-list"),
    # new_subgroups past the world
    (
     "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
     "<module>\nValueError: The arg 'group_size' (16) must not exceed the world size (8)\n",
     "device-mesh-too-big"),
    # NCCL collectives captured in a CUDA graph on an old NCCL
    (
     "RuntimeError: Capturing NCCL collectives is only allowed with NCCL >= 2.9.6\n",
     "nccl-cuda-graph-capture"),
    # _set_static_graph after the first step
    (
     "[rank0]: RuntimeError: set_static_graph() should be called before training loop "
     "starts and after DistributedDataParallel is constructed.\n",
     "ddp-static-graph"),
    # DDP over a module on CPU and GPU
    (
     "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
     "<module>\nValueError: DistributedDataParallel's input module must be on the same "
     "type of devices, but input module parameters locate in {'cpu', 'cuda'}.\n",
     "ddp-module-device"),
    # init_process_group(store=...) without its rank
    (
     "Traceback (most recent call last):\n  File \"train.py\", line 42, in "
     "<module>\nValueError: rank must be non-negative if using store\n",
     "init-method-without-rank"),
    # torch 2.4+ ProcessGroupNCCL's heartbeat monitor: the watchdog thread hung, not a
    # collective past its timeout
    ("[rank1]:[F1127 10:00:00.000000 4242 ProcessGroupNCCL.cpp:1306] [PG ID 0 PG GUID 0(default_pg)"
     " Rank 1] [PG ID 0 PG GUID 0(default_pg) Rank 1] ProcessGroupNCCL's watchdog got stuck for 480"
     " seconds without making progress in monitoring enqueued collectives. This typically "
     "indicates a NCCL/CUDA API (e.g., CudaEventDestroy) hang blocking the watchdog, and could "
     "be triggered by another thread holding the GIL inside a CUDA api (for example, "
     "CudaEventDestroy), or other deadlock-prone behaviors.\n", "nccl-watchdog-stuck"),
    # torch.utils.checkpoint's metadata report pasted from below its first line (ZeRO-3 frees
    # the parameters between forward and recomputation)
    ("[rank1]: tensor at position 20:\n[rank1]: saved metadata: {'shape': torch.Size([128]), "
     "'dtype': torch.bfloat16, 'device': device(type='cuda', index=1)}\n[rank1]: recomputed "
     "metadata: {'shape': torch.Size([0]), 'dtype': torch.bfloat16, 'device': "
     "device(type='cuda', index=1)}\n", "checkpoint-recompute-mismatch"),
    # names torch.distributed gained later (tensor.parallel's styles in 2.8, DCP helpers)
    ("[rank0]: ImportError: cannot import name 'PrepareModuleInputOutput' from "
     "'torch.distributed.tensor.parallel' (/venv/lib/python3.11/site-packages/torch/"
     "distributed/tensor/parallel/__init__.py)\n", "torch-too-old-for-api"),
    # a private helper is no release's promise: a newer torch may have moved it as well as an
    # older one lacking it, so it is the project and torch not matching
    (TRACE + "ImportError: cannot import name '_copy_state_dict' from "
     "'torch.distributed._state_dict_utils' (/venv/lib/python3.11/site-packages/torch/"
     "distributed/_state_dict_utils.py)\n", "library-version-skew"),
    # the same quoted without its path: torch is no project folder of the script's; nor is
    # a library of its stack; a folder 'datasets' of the project's own is the wrong folder
    ("ImportError: cannot import name '_copy_state_dict' from "
     "'torch.distributed._state_dict_utils'\n", "library-version-skew"),
    (TRACE + "ImportError: cannot import name 'is_torch_greater_or_equal' from "
     "'transformers.utils'\n", "library-version-skew"),
    (TRACE + "ImportError: cannot import name 'load_dataset' from 'datasets'\n",
     "module-not-found"),
    # a file missing where it is read is the script's own error, not a missing output folder
    ("Traceback (most recent call last):\n  File \"train.py\", line 15, in <module>\n"
     "    cfg = open(args.config)\n"
     "FileNotFoundError: [Errno 2] No such file or directory: 'configs/base.yaml'\n",
     "python-exception"),
    # Python's logging.FileHandler (logging/__init__.py _open) in a folder never created
    ("Traceback (most recent call last):\n  File \"/usr/lib/python3.10/logging/__init__.py\", "
     "line 1218, in _open\n    return open_func(self.baseFilename, self.mode,\n"
     "FileNotFoundError: [Errno 2] No such file or directory: '/work/out/rank3/train.log'\n",
     "output-dir-missing"),
    # slurmstepd's exec_task when srun's command is not on the node's PATH
    ("slurmstepd: error: execve(): torchrun: No such file or directory\nsrun: error: g1301: "
     "task 0: Exited with exit code 2\n", "launcher-command-not-found"),
    # torch 2.x on Windows (ProcessGroupGloo.cpp without the function's name)
    ("RuntimeError: unsupported gloo device\n", "windows-gloo-device"),
    # torch/__init__.py _load_dll_libraries on Windows (torch 2.9): the DLL's initialisation
    # failed, in English and localised
    (TRACE + "OSError: [WinError 1114] A dynamic link library (DLL) initialization routine "
     "failed. Error loading \"D:\\proj\\.venv\\Lib\\site-packages\\torch\\lib\\c10.dll\" or "
     "one of its dependencies.\n", "windows-torch-dll-missing"),
    (TRACE + "OSError: [WinError 1114] \u52a8\u6001\u94fe\u63a5\u5e93(DLL)\u521d\u59cb\u5316\u4f8b\u7a0b\u5931\u8d25\u3002 "
     "Error loading \"C:\\Python312\\Lib\\site-packages\\torch\\lib\\torch_python.dll\" or "
     "one of its dependencies.\n", "windows-torch-dll-missing"),
    # the watchdog of a process group given a timeout of 1 ms (torch 2.5 ProcessGroupNCCL.cpp)
    ("terminate called after throwing an instance of 'c10::DistBackendError'\n  what():  [PG ID"
     " 0 PG GUID 0(default_pg) Rank 3] Process group watchdog thread terminated with exception: "
     "[Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE,"
     " NumelIn=1, NumelOut=1, Timeout(ms)=1) ran for 90 milliseconds before timing out.\n",
     "process-group-timeout-too-short"),
    # a timeout of seconds is chosen to see a hang soon (safelaunch --collective-timeout 20):
    # still a rank that never joined, not a timeout too short
    ("[rank0]:[E1127 10:00:00.000000 4242 ProcessGroupNCCL.cpp:632] [Rank 0] Watchdog caught "
     "collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=1, "
     "NumelOut=1, Timeout(ms)=20000) ran for 20081 milliseconds before timing out.\n",
     "collective-timeout"),
    # the same with the default timeout: a rank that never joined
    ("[rank1]:[E ProcessGroupNCCL.cpp:523] [Rank 1] Watchdog caught collective operation "
     "timeout: WorkNCCL(SeqNum=50404, OpType=GATHER, NumelIn=8000, NumelOut=0, "
     "Timeout(ms)=600000) ran for 600327 milliseconds before timing out.\n",
     "collective-timeout"),
    # torch/cuda/__init__.py get_device_properties (0.4 .. 2.x), also DataParallel's
    # _check_balance with device_ids the machine does not have
    (TRACE + "    dev_props = [torch.cuda.get_device_properties(i) for i in device_ids]\n"
     "AssertionError: Invalid device id\n", "no-cuda-device"),
    # torch/distributed/rendezvous.py _file_rendezvous_handler (1.0 .. 2.x)
    ("ValueError: Error initializing torch.distributed using file:// rendezvous: rank parameter "
     "missing\n", "init-method-without-rank"),
    # uvicorn's bind error (a server every rank starts on one port), any case of the words
    ("ERROR: [Errno 98] error while attempting to bind on address ('0.0.0.0', 8080): address "
     "already in use\n", "address-in-use"),
    # transformers' Trainer attributes dropped (deepspeed -> is_deepspeed_enabled, 4.30)
    (TRACE + "AttributeError: 'OurTrainer' object has no attribute 'deepspeed'\n",
     "library-version-skew"),
    # mmcv 1.x ops built without CUDA (mmcv/ops/csrc/pytorch/deform_conv.cpp), detectron2's
    (TRACE + "RuntimeError: DeformConv is not compiled with GPU support\n",
     "extension-without-cuda"),
    (TRACE + "RuntimeError: Not compiled with GPU support\n", "extension-without-cuda"),
    # mmcv 1.4 and later (mmcv/ops/csrc/common/pytorch_device_registry.hpp): no CUDA kernel
    # of the op registered
    (TRACE + "  File \"/usr/local/lib/python3.8/dist-packages/mmcv/ops/nms.py\", line 27, in "
     "forward\n    inds = ext_module.nms(\nRuntimeError: nms_impl: implementation for device "
     "cuda:0 not found.\n", "extension-without-cuda"),
    # DGL's CPU build (src/runtime/c_runtime_api.cc) asked for a CUDA device
    ("dgl._ffi.base.DGLError: [14:00:04] /opt/dgl/src/runtime/c_runtime_api.cc:82: Check "
     "failed: allow_missing: Device API cuda is not enabled. Please install the cuda version "
     "of dgl.\n", "extension-without-cuda"),
    # OpenMMLab's version check at import (mmdet/__init__.py, mmseg/__init__.py)
    (TRACE + "AssertionError: MMCV==2.2.0 is used but incompatible. Please install "
     "mmcv>=2.0.0rc4, <2.2.0.\n", "library-version-skew"),
    # libfabric's EFA provider (prov/efa/src/rdm/efa_rdm_pke_utils.c) when ulimit -l is low
    ("Libfabric EFA provider has encountered an internal error:\n\nLibfabric error: (-12) "
     "Cannot allocate memory\nEFA internal error: (4112) Failure to post internal receive "
     "buffers\n\nYour application will now abort().\n", "nccl-memlock"),
    # bash on a script with CRLF line endings; env on a CRLF shebang
    ("/bin/bash^M: bad interpreter: No such file or directory\n", "launch-script-crlf"),
    ("/usr/bin/env: \u2018python3\\r\u2019: No such file or directory\n", "launch-script-crlf"),
    # torch 1.13-2.0 ProcessGroup.hpp: "ProcessGroup " + getBackendName() + " does not support"
    (TRACE + "RuntimeError: ProcessGroup nccl does not support _reduce_scatter_base\n",
     "backend-lacks-collective"),
    (TRACE + "RuntimeError: ProcessGroup mpi does not support allgather_coalesced\n",
     "backend-lacks-collective"),
    # torch >= 2.0 Backend.hpp (2.13's libtorch_cpu strings), here the Intel GPU backend
    (TRACE + "RuntimeError: Backend xccl does not support allgather_coalesced\n",
     "backend-lacks-collective"),
    # torch 2.13 Backend.hpp: gloo, the 2.13 wording the rule already knew
    (TRACE + "RuntimeError: Backend gloo does not support reduce_scatter_tensor_coalesced\n",
     "backend-lacks-collective"),
    # ProcessGroupGloo::gather (torch 1.x-2.13): gather_list of the wrong length on the root
    (TRACE + "RuntimeError: ProcessGroupGloo::gather: Incorrect output list size 1. Output "
     "list size should be 2, same as size of the process group.\n",
     "collective-output-list"),
    # ProcessGroupNCCL::gather (torch 2.x): the same check, a ValueError
    (TRACE + "ValueError: ProcessGroupNCCL::gather: Incorrect output list size 4. Output list "
     "size should be 8, same as size of the process group.\n",
     "collective-output-list"),
    # ProcessGroupGloo::scatter: scatter_list of the wrong length on the source
    (TRACE + "RuntimeError: ProcessGroupGloo::scatter: Incorrect input list size 3. Input "
     "list size should be 2, same as size of the process group.\n",
     "collective-output-list"),
    # torch < 1.13: ReduceOp was a plain enum, printed ReduceOp.MAX
    (TRACE + "ValueError: all_reduce does not support ReduceOp.MAX on complex tensors\n",
     "collective-dtype-unsupported"),
    # torch >= 1.13 (2.13 distributed_c10d.py): RedOpType.MAX
    (TRACE + "ValueError: all_reduce does not support RedOpType.MAX on complex tensors\n",
     "collective-dtype-unsupported"),
    # torch 2.0-2.1 torch/distributed/_tensor/sharding_prop.py
    (TRACE + "NotImplementedError: Operator aten.nonzero.default does not have a "
     "DistributedTensor rule registered.\n",
     "dtensor-no-sharding-rule"),
    # torch 2.13 torch/distributed/tensor/_sharding_prop.py
    (TRACE + "NotImplementedError: Operator aten.nonzero.default does not have a sharding "
     "strategy registered.\n",
     "dtensor-no-sharding-rule"),
    # FSDP2 torch 2.4-2.13 _fsdp_param_group.py _init_mp_dtypes
    (TRACE + "AssertionError: FSDP expects uniform original parameter dtype but got "
     "{torch.float32, torch.bfloat16}\n",
     "fsdp-mixed-dtype"),
    # torch 2.13 pipelining/schedules.py _check_inputs: the batch split into fewer microbatches
    (TRACE + "ValueError: Expecting 8 arg_mbs but got 4\n",
     "pipeline-batch-smaller-than-chunks"),
    # torch 2.4-2.5 pipelining/microbatch.py
    (TRACE + "ValueError: Arg 0 on chunking dimension has a size of 2, smaller than the number "
     "of chunks 4. PiPPy cannot reduce the number of chunks because other arguments have "
     "bigger chunk-dimension sizes. Please adjust your num_chunks setting.\n",
     "pipeline-batch-smaller-than-chunks"),
    # torch reducer.cpp verify_params_across_processes (1.x-2.13): counts agree, a shape not
    # (the suffix as in 2.13's libtorch_cpu strings; the rank prefix illustrative)
    (TRACE + "RuntimeError: [1]: params[3] in this process with sizes [4096, 32] appears not "
     "to match sizes of the same param in process 0.\n",
     "ddp-models-differ"),
    (TRACE + "RuntimeError: [1]: params[0] in this process with sizes [64, 3] appears not to "
     "match strides of the same param in process 0.\n",
     "ddp-models-differ"),
    # torch autograd engine (all releases): the second of several outputs
    (TRACE + "RuntimeError: element 1 of tensors does not require grad and does not have a "
     "grad_fn\n",
     "loss-without-grad"),
    (TRACE + "RuntimeError: element 0 of tensors does not require grad and does not have a "
     "grad_fn\n",
     "loss-without-grad"),
    # torch 2.13 _dynamo/variables/tensor.py: loss.backward() traced by torch.compile
    (TRACE + "torch._dynamo.exc.TorchRuntimeError: tensor does not require grad and does not "
     "have a grad_fn\n",
     "loss-without-grad"),
    # torch >= 2.6 DCP FileSystemReader without collectives: the rank-local __0.metadata
    (TRACE + "FileNotFoundError: [Errno 2] No such file or directory: "
     "'/scratch/ckpt/step-1000/__0.metadata'\n",
     "sharded-checkpoint-not-shared"),
    (TRACE + "FileNotFoundError: [Errno 2] No such file or directory: "
     "'/scratch/ckpt/step-1000/.metadata'\n",
     "sharded-checkpoint-not-shared"),
    # torch 2.0-2.3 serialization.py UNSAFE_MESSAGE (weights_only=True): an HTML page
    (TRACE + "_pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with "
     "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
     "execution.Do it only if you get the file from a trusted source. WeightsUnpickler "
     "error: Unsupported operand 60\n",
     "checkpoint-corrupt"),
    # the same on a Git LFS pointer ('v')
    (TRACE + "_pickle.UnpicklingError: Weights only load failed. Re-running `torch.load` with "
     "`weights_only` set to `False` will likely succeed, but it can result in arbitrary code "
     "execution.Do it only if you get the file from a trusted source. WeightsUnpickler "
     "error: Unsupported operand 118\n",
     "checkpoint-corrupt"),
    # torch 2.13 serialization.py _validate_device: any accelerator backend
    (TRACE + "RuntimeError: Attempting to deserialize object on XPU device 3 but "
     "torch.xpu.device_count() is 1. Please use torch.load with map_location to map your "
     "storages to an existing device.\n",
     "checkpoint-device-missing"),
    (TRACE + "RuntimeError: Attempting to deserialize object on a HPU device but "
     "torch.hpu.is_available() is False. If you are running on a CPU-only machine, please use "
     "torch.load with map_location=torch.device('cpu') to map your storages to the CPU.\n",
     "checkpoint-device-missing"),
    # torch 1.x-2.13 CUDA
    (TRACE + "RuntimeError: Attempting to deserialize object on CUDA device 7 but "
     "torch.cuda.device_count() is 1. Please use torch.load with map_location to map your "
     "storages to an existing device.\n",
     "checkpoint-device-missing"),
    # torch >= 2.7 _dynamo/variables/builder.py: a graph break, fatal with fullgraph=True
    (TRACE + "torch._dynamo.exc.Unsupported: FSDP with use_orig_params=False\n"
     "  Explanation: Dynamo only supports FSDP with use_orig_params=True\n",
     "compile-fsdp-orig-params"),
    # torch 2.4-2.5 _dynamo/exc.py: the exception before its rename (class name from its
    # exc.py; the message after it is illustrative)
    (TRACE + "torch._dynamo.exc.FailOnCacheLimitHit: cache_size_limit reached\n",
     "compile-recompile-limit"),
    # torch 2.13 _dynamo/convert_frame.py
    (TRACE + "torch._dynamo.exc.FailOnRecompileLimitHit: Hard failure due to fullgraph=True\n",
     "compile-recompile-limit"),
    # torch 2.13 distributed/checkpoint/default_planner.py (DefaultLoadPlanner)
    (TRACE + "ValueError: Size mismatch between saved torch.Size([32000, 4096]) and current: "
     "torch.Size([32001, 4096]) for model.embed_tokens.weight\n",
     "state-dict-keys"),
    # cuDNN 8 loading a sub-library from a system CUDA first on LD_LIBRARY_PATH
    ("Could not load library libcudnn_cnn_train.so.8. Error: /usr/local/cuda-12.1/lib/"
     "libcudnn_cnn_train.so.8: undefined symbol: _ZN5cudnn3cnn34layerNormFwd_execute_internal"
     "_implERKNS_7backend11VariantPackEP11CUstream_st, version libcudnn_cnn_infer.so.8\n",
     "cuda-libraries-mixed"),
    # MapAllocator's mmap of a shared tensor: ENOMEM is the count of mappings, where another
    # failure of the same call stays /dev/shm's
    (TRACE + "RuntimeError: unable to mmap 29764 bytes from file </torch_10182_3020184674_63991>:"
     " Cannot allocate memory (12)\n", "mmap-count-limit"),
    # the same from a real torch 2.13 run: share_memory_() of 256 MiB tensors under ulimit -v
    ("  File \"/venv/lib/python3.11/site-packages/torch/storage.py\", line 527, in "
     "_share_fd_cpu_\n    return super()._share_fd_cpu_(*args, **kwargs)\nRuntimeError: unable "
     "to mmap 268435456 bytes from file </torch_29988_2277609459_19>: Cannot allocate memory "
     "(12)\n", "mmap-count-limit"),
    (TRACE + "RuntimeError: unable to mmap 29764 bytes from file </torch_10182_3020184674_63991>:"
     " No such device (19)\n", "shm-exhausted"),
    # ATen's dtype check of lerp_'s end (an fp32 EMA weight and a bf16 model's)
    (TRACE + "    tgt.lerp_(src, weight)\nRuntimeError: expected dtype float for `end` but got "
     "dtype c10::BFloat16\n", "dtype-mismatch"),
    # a module of torch's stack without an attribute of another release (torch.compile is
    # torch 2's; a model class a newer transformers has)
    (TRACE + "    model = torch.compile(model)\nAttributeError: module 'torch' has no attribute "
     "'compile'\n", "library-version-skew"),
    (TRACE + "AttributeError: module 'transformers' has no attribute "
     "'Qwen3VLForConditionalGeneration'\n", "library-version-skew"),
    # NCCL misc/socket.cc: a peer connecting over InfiniBand's channel where this node
    # listens on sockets (nodes on different transports)
    ("user:16899:16961 [0] misc/socket.cc:441 NCCL WARN socketFinalizeAccept: wrong type 4 != 3\n"
     "user:16899:16961 [0] NCCL INFO misc/socket.cc:561 -> 3\n", "nccl-network"),
    # torch 1.x distributed_c10d.py new_group: its rank check with a doubled article
    (TRACE + "  File \"/venv/lib/python3.9/site-packages/torch/distributed/distributed_c10d.py\", "
     "line 3321, in new_group\n    raise RuntimeError(\nRuntimeError: The new group's rank "
     "should be within the the world_size set by init_process_group\n",
     "device-mesh-too-big"),
    # --- one dtype beside another, in ATen's other checks (dtype-mismatch) ---
    # sdp_utils_cpp.h validate_sdpa_input (torch 2.x): q left in fp32 beside bf16 k/v
    (TRACE + "    out = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)\nRuntimeError: "
     "Expected query, key, and value to have the same dtype, but got query.dtype: float "
     "key.dtype: c10::BFloat16 and value.dtype: c10::BFloat16 instead.\n", "dtype-mismatch"),
    # TensorAdvancedIndexing.cpp index_put_: fp32 image features into fp16 embeddings
    (TRACE + "    inputs_embeds[image_mask] = image_features\nRuntimeError: Index put requires "
     "the source and destination dtypes match, got Half for the destination and Float for the "
     "source.\n", "dtype-mismatch"),
    # masked_scatter_ under autocast (torch 2.x)
    (TRACE + "    embeds.masked_scatter_(mask, feats)\nRuntimeError: masked_scatter_: expected "
     "self and source to have same dtypes but got Half and Float\n", "dtype-mismatch"),
    # ScatterGatherChecks.h
    (TRACE + "    out.scatter_(1, index, src)\nRuntimeError: scatter(): Expected self.dtype to be "
     "equal to src.dtype\n", "dtype-mismatch"),
    # mixed_data_type.h: a LayerNorm offloaded to the CPU in bf16, fed fp32
    (TRACE + "    return F.layer_norm(input, self.normalized_shape, self.weight, self.bias, "
     "self.eps)\nRuntimeError: mixed dtype (CPU): expect parameter to have scalar type of "
     "Float\n", "dtype-mismatch"),
    # torch 1.x TensorUtils.cpp checkSameType: apex O2's fp16 BatchNorm fed fp32
    (TRACE + "    return torch.batch_norm(\nRuntimeError: Expected tensor for argument #1 "
     "'input' to have the same type as tensor for argument #2 'weight'; but type "
     "torch.cuda.FloatTensor does not equal torch.cuda.HalfTensor (while checking arguments "
     "for cudnn_batch_norm)\n", "dtype-mismatch"),
    # torch/utils/tensorboard/__init__.py when the tensorboard package is not installed
    ("Traceback (most recent call last):\n  File \"/opt/conda/lib/python3.8/site-packages/torch/"
     "utils/tensorboard/__init__.py\", line 2, in <module>\nModuleNotFoundError: No module named "
     "'tensorboard'\n\nDuring handling of the above exception, another exception occurred:\n\n"
     + TRACE + "ImportError: TensorBoard logging requires TensorBoard version 1.15 or above\n",
     "package-not-installed"),
    # joblib/loky process_executor.py: its text guesses a segfault, but -9 is a kill
    ("joblib.externals.loky.process_executor.TerminatedWorkerError: A worker process managed by "
     "the executor was unexpectedly terminated. This could be caused by a segmentation fault "
     "while calling the function or by an excessive memory usage causing the Operating System "
     "to kill the worker.\n\nThe exit codes of the workers are {SIGKILL(-9)}\n", "oom-killer"),
    # torch before 2.1: no bfloat16 kernels for the other upsampling modes either
    (TRACE + "RuntimeError: \"upsample_bilinear2d_out_frame\" not implemented for 'BFloat16'\n",
     "bf16-upsample-old-torch"),
    # float8 storage tensors in other ops than addmm (NotImplementedError in newer torch)
    (TRACE + "NotImplementedError: \"cat_cuda\" not implemented for 'Float8_e4m3fn'\n",
     "fp8-compute-op"),
    (TRACE + "RuntimeError: \"ufunc_add_CUDA\" not implemented for 'Float8_e5m2'\n",
     "fp8-compute-op"),
]

HEALTHY = [
    # a model's own report of its attention inputs: nothing differs
    "dtype check: query, key, and value have the same dtype (c10::BFloat16)\n",
    # TensorFlow's probe for CUDA in an image that has both (a warning, torch goes on)
    "W tensorflow/stream_executor/platform/default/dso_loader.cc:64] Could not load dynamic "
    "library 'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared object file: "
    "No such file or directory\n",
    # torch's warning when it only probed for CUDA, in a CPU run that works
    "[rank0]: /venv/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA "
    "initialization: CUDA driver initialization failed, you might not have a CUDA gpu. "
    "(Triggered internally at ../c10/cuda/CUDAFunctions.cpp:108.)\n[rank0]: using backend gloo"
    "\n[rank0]: done, final loss 1.52\n",
    # a side connection lost and retried while training goes on
    "[rank0]: step 100 loss 1.2\nERROR:mlflow.utils.rest_utils:API request to http://mlflow:5000"
    "/api/2.0/mlflow/runs/log-batch failed with exception ConnectionResetError(104, Connection "
    "reset by peer); will retry\n[rank0]: step 200 loss 1.1\n[rank0]: training complete\n",
    "[rank0]: step 100 loss 1.2\nERROR:root:heartbeat to metrics server failed: Connection reset "
    "by peer; reconnecting\n[rank0]: step 200 loss 1.1\n[rank0]: done\n",
    # a library probing for an optional torch API and going on without it
    "accelerate: cannot import name 'fully_shard' from 'torch.distributed.fsdp'; using "
    "FSDP1\n",
    "Trainer object has no attribute cache: building it\n",
    "GPU support: compiled with CUDA 12.1\n",
    "[rank0]: ProcessGroup nccl initialized with 8 ranks\n",
    "Backend xccl selected for device xpu\n",
    "gather: output list size 8, same as size of the process group\n",
    "step 100: schedule got 8 arg_mbs, as expected\n",
    "params[3] in this process with sizes [4096, 32] match the same param in process 0\n",
    "Saved checkpoint to /scratch/ckpt/step-1000/__0.metadata\n",
    "FSDP: uniform original parameter dtype torch.bfloat16\n",
    "Loading checkpoint: size of saved torch.Size([32000, 4096]) matches current\n",
    "Deserializing object on XPU device 0 (torch.xpu.device_count() is 8)\n",
    "torch._dynamo hit config.recompile_limit (8); falling back to eager\n",
]
