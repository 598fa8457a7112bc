"""The wordings NCCL, torch's ProcessGroupNCCL/ProcessGroupGloo, gloo and the CUDA runtime
use for a failure, release by release, each diagnosed as its rule; and healthy lines that
look like them, which must not be."""

from __future__ import annotations

TRACE = ("Traceback (most recent call last):\n"
         "  File \"/workspace/train.py\", line 88, in <module>\n"
         "    main()\n")

WORDINGS = [
    # NCCL's (and RCCL's hipified) P2P transport: a CUDA call there failed (transport/p2p.cc
    # CUDACHECK), here mapping a peer's IPC handle
    ("gpu-node-2:4411:4470 [1] transport/p2p.cc:287 NCCL WARN Cuda failure 'invalid argument'\n"
     "gpu-node-2:4411:4470 [1] NCCL INFO transport/p2p.cc:376 -> 1\n"
     "torch.distributed.DistBackendError: NCCL error in: ProcessGroupNCCL.cpp:1970, unhandled "
     "cuda error (run with NCCL_DEBUG=INFO for details), NCCL version 2.18.1\n", "nccl-p2p"),
    ("mi100:812:830 [2] /src/rccl/hipify/src/transport/p2p.cc:301 NCCL WARN HIP failure "
     "'invalid device pointer'\nRuntimeError: NCCL Error 1: unhandled cuda error\n", "nccl-p2p"),
    # NCCL 2.25 (graph/topo.h ncclTopoIdToIndex): a NIC missing from the topology graph
    ("gpu-node-7:1234:1290 [0] graph/search.cc:1135 NCCL WARN Could not find a path for "
     "pattern 1, falling back to simple order\ngpu-node-7:1234:1290 [0] graph/topo.h:230 NCCL "
     "WARN Could not find NET with id 0\ntorch.distributed.DistBackendError: NCCL error in: "
     "ProcessGroupNCCL.cpp:3376, internal error - please report this issue to the NCCL "
     "developers, NCCL version 2.25.1\n", "nccl-topology-no-path"),
    # NCCL misc/socket.cc socketPollConnect (2.18-2.2x): connect returned an errno
    ("node1:3996:4012 [2] misc/socket.cc:533 NCCL WARN socketPollConnect: Connect to "
     "128::1d<40861> returned 113(No route to host) errno 11(Resource temporarily unavailable)\n",
     "nccl-network"),
    # NCCL misc/socket.cc (2.2x): connection refused until the retries ran out
    ("node1:3996:3996 [2] misc/socket.cc:578 NCCL WARN socketPollConnect: connect to "
     "10.82.101.249<54709> returned Connection refused, exceeded error retry count after 35 "
     "attempts\n",
     "nccl-network"),
    # NCCL os/linux.cc (newer releases): the same, from ncclOsSocketPollConnect
    ("node3:2387:2387 [3] os/linux.cc:200 NCCL WARN ncclOsSocketPollConnect: connect to "
     "10.82.101.249<37857> returned Connection refused, exceeded error retry count after 35 "
     "attempts\n",
     "nccl-network"),
    # NCCL misc/socket.cc: connect kept timing out
    ("node1:3996:4012 [0] misc/socket.cc:520 NCCL WARN socketPollConnect: exceeded timeouts "
     "(35)\n",
     "nccl-network"),
    # torch 2.2+ watchdog: the asynchronous error's first line, ncclGetErrorString(ncclRemoteError)
    ("[rank1]:[E ProcessGroupNCCL.cpp:1182] [PG 0 Rank 1] Process group watchdog thread "
     "terminated with exception: NCCL error: remote process exited or there was a network "
     "error, NCCL version 2.20.5\n",
     "nccl-remote-error"),
    # vLLM / SGLang pynccl_wrapper.py NCCL_CHECK
    (TRACE + "RuntimeError: NCCL error: remote process exited or there was a network error\n",
     "nccl-remote-error"),
    # torch/csrc/cuda/nccl.cpp (torch.cuda.nccl, DataParallel's broadcast)
    (TRACE + "RuntimeError: NCCL Error 6: remote process exited or there was a network error\n",
     "nccl-remote-error"),
    # older NCCL (2.7) include/shm.h: the segment in /dev/shm could not be extended
    ("4e9a7654171e:8639:8745 [0] include/shm.h:28 NCCL WARN Call to posix_fallocate failed : "
     "No space left on device\n4e9a7654171e:8639:8745 [0] NCCL INFO include/shm.h:41 -> 2\n",
     "nccl-shm"),
    # older NCCL include/shm.h shmOpen
    ("node1:812:830 [1] include/shm.h:31 NCCL WARN Unable to allocate shared memory (9637888 "
     "bytes) : No space left on device\n",
     "nccl-shm"),
    # torch 2.1 ProcessGroupNCCL broadcastUniqueNCCLID ("retreiving"), lazily for a recv
    ("  File \"/usr/local/lib/python3.10/dist-packages/torch/distributed/distributed_c10d.py\", "
     "line 1640, in recv\n    pg.recv([tensor], src, tag).wait()\nRuntimeError: [3] is setting "
     "up NCCL communicator and retreiving ncclUniqueId from [0] via c10d key-value store by key "
     "'0:3', but store->get('0:3') got error: Socket Timeout\n",
     "nccl-device-id-missing"),
    # torch 2.4+ (DistBackendError, "retrieving"), for a batch_isend_irecv
    ("[rank1]:   File \"/opt/conda/lib/python3.11/site-packages/torch/distributed/"
     "distributed_c10d.py\", line 2511, in batch_isend_irecv\n[rank1]:     p2p_op.op(p2p_op."
     "tensor, p2p_op.peer, p2p_op.group, p2p_op.tag)\n[rank1]: torch.distributed."
     "DistBackendError: [1] is setting up NCCL communicator and retrieving ncclUniqueId from [0] "
     "via c10d key-value store by key '0', but store->get('0') got error: wait timeout after "
     "600000ms, keys: /default_pg/0//cuda//0\n",
     "nccl-device-id-missing"),
    # the same wait under a barrier: rank 0 late or gone, the store's timeout (not this rule)
    ("[rank4]:   File \"/opt/conda/lib/python3.11/site-packages/torch/distributed/"
     "distributed_c10d.py\", line 4159, in barrier\n[rank4]:     work = group.barrier(opts=opts)"
     "\n[rank4]: torch.distributed.DistBackendError: [4] is setting up NCCL communicator and "
     "retrieving ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') "
     "got error: wait timeout after 600000ms, keys: /default_pg/0//cuda//0\n",
     "store-timeout"),
    # a loss's class targets out of range: THCUNN (torch 1.x), ATen Loss.cu (2.x), THNN's CPU
    # assert (torch 0.4-1.2, closed with '), ATen LossNLL.cpp's TORCH_CHECK_INDEX (1.3+)
    ("RuntimeError: CUDA error: device-side assert triggered\n/pytorch/aten/src/THCUNN/"
     "SpatialClassNLLCriterion.cu:106: cunn_SpatialClassNLLCriterion_updateOutput_kernel: block: "
     "[0,0,0], thread: [725,0,0] Assertion `t >= 0 && t < n_classes` failed.\n",
     "embedding-index-out-of-range"),
    ("/pytorch/aten/src/ATen/native/cuda/Loss.cu:242: nll_loss_forward_reduce_cuda_kernel_2d: "
     "block: [0,0,0], thread: [3,0,0] Assertion `t >= 0 && t < n_classes` failed.\n"
     "[rank0]: RuntimeError: CUDA error: device-side assert triggered\n",
     "embedding-index-out-of-range"),
    (TRACE + "RuntimeError: Assertion `cur_target >= 0 && cur_target < n_classes' failed.  at "
     "../aten/src/THNN/generic/ClassNLLCriterion.c:94\n", "embedding-index-out-of-range"),
    (TRACE + "IndexError: Target 10 is out of bounds.\n", "embedding-index-out-of-range"),
    # NCCL's CUCHECK (driver calls) prints the error code
    ("node2:1201:1201 [0] NCCL WARN Cuda failure 3 'initialization error'\n",
     "cuda-init-failed-in-nccl"),
    # NCCL's CUDACHECK: cudaGetErrorString(cudaErrorMisalignedAddress)
    ("node1:77:91 [0] enqueue.cc:1151 NCCL WARN Cuda failure 'misaligned address'\n",
     "cuda-illegal-access"),
    # NCCL's CUCHECK: cuGetErrorString(CUDA_ERROR_ILLEGAL_INSTRUCTION)
    ("node1:77:91 [0] NCCL WARN Cuda failure 715 'an illegal instruction was encountered'\n",
     "cuda-illegal-access"),
    # NCCL's CUCHECK: cuGetErrorString(CUDA_ERROR_LAUNCH_FAILED)
    ("node1:77:91 [0] NCCL WARN Cuda failure 719 'unspecified launch failure'\n",
     "gpu-hardware-error"),
    # torch's CUDA check: cudaGetErrorString(cudaErrorCompatNotSupportedOnDevice)
    (TRACE + "RuntimeError: CUDA error: forward compatibility was attempted on non supported "
     "HW\nCUDA kernel errors might be asynchronously reported at some other API call, so the "
     "stacktrace below might be incorrect.\n",
     "container-cuda-too-new"),
    # torch's cuDNN check (cuDNN 8): cuDNN could not allocate its memory
    (TRACE + "RuntimeError: cuDNN error: CUDNN_STATUS_ALLOC_FAILED\n",
     "cuda-oom"),
    # vLLM / SGLang pynccl: ncclGetErrorString(ncclInvalidUsage)
    (TRACE + "RuntimeError: NCCL error: invalid usage (run with NCCL_DEBUG=WARN for details)\n",
     "nccl-invalid-usage"),
    # torch.cuda.nccl: ncclGetErrorString(ncclInvalidUsage)
    (TRACE + "RuntimeError: NCCL Error 5: invalid usage (run with NCCL_DEBUG=WARN for details)\n",
     "nccl-invalid-usage"),
    # torch 2.2+ watchdog: ncclGetErrorString(ncclInternalError) of newer NCCL releases
    ("[rank0]:[E ProcessGroupNCCL.cpp:1182] [PG 0 Rank 0] Process group watchdog thread "
     "terminated with exception: NCCL error: internal error - please report this issue to the "
     "NCCL developers, NCCL version 2.21.5\n",
     "nccl-error"),
    # torch.cuda.nccl: ncclInternalError
    (TRACE + "RuntimeError: NCCL Error 3: internal error - please report this issue to the NCCL "
     "developers\n",
     "nccl-error"),
    # vLLM / SGLang pynccl: ncclGetErrorString(ncclInvalidArgument)
    (TRACE + "RuntimeError: NCCL error: invalid argument (run with NCCL_DEBUG=WARN for details)\n",
     "nccl-error"),
    # torch 2.3 heartbeat monitor: another rank's watchdog flagged a timeout in the store
    ("[rank3]:[E ProcessGroupNCCL.cpp:1316] [PG 0 Rank 3] Received a global timeout from "
     "another rank and will start to dump the debug info.\n",
     "collective-timeout"),
    # torch 2.4 heartbeat monitor: this rank's own watchdog timed out
    ("[rank0]:[E ProcessGroupNCCL.cpp:1360] [PG 0 Rank 0] Received a timeout signal from this "
     "local rank and will start to dump the debug info. Last enqueued NCCL work: 12, last "
     "completed NCCL work: 11.\n",
     "collective-timeout"),
    # torch 2.4+'s C++ backtrace of the watchdog's exception, the log cut before its message:
    # WorkNCCL::checkTimeout raises only the timeout
    ("frame #1: c10d::ProcessGroupNCCL::WorkNCCL::checkTimeout(std::optional<std::chrono::"
     "duration<long, std::ratio<1l, 1000l> > >) + 0x1d2 (0x7f9391ba8c62 in /venv/lib/python3.10/"
     "site-packages/torch/lib/libtorch_cuda.so)\nframe #2: c10d::ProcessGroupNCCL::"
     "watchdogHandler() + 0x1a0 (0x7f9391bada80 in /venv/lib/python3.10/site-packages/torch/lib/"
     "libtorch_cuda.so)\nterminate called after throwing an instance of 'c10::DistBackendError'\n",
     "collective-timeout"),
    # torch 2.3's exit message of the heartbeat monitor
    ("[rank3]:[F ProcessGroupNCCL.cpp:1184] [PG 0 Rank 3] ProcessGroupNCCL's watchdog detected "
     "a collective timeout and notified current rank. This is most likely caused by incorrect "
     "usages of collectives, e.g., wrong sizes used across ranks\n",
     "collective-timeout"),
    # gloo unbound_buffer.cc: the rank whose recv timed out closes its pairs
    (TRACE + "RuntimeError: Application timeout caused pair closure\n",
     "collective-timeout"),
    # torch 2.2+ NCCLUtils C10D_CHECK_TIMEOUT: a non-blocking communicator never got ready
    (TRACE + "torch.distributed.DistBackendError: NCCL timeout in: /pytorch/torch/csrc/"
     "distributed/c10d/NCCLUtils.cpp:196\n",
     "collective-timeout"),
    # ProcessGroupNCCL.cpp WorkNCCL::synchronize with TORCH_NCCL_BLOCKING_WAIT=1: torch 2.4+
    # (logPrefix, no variable named), 2.0-2.3 (the variable named), 1.8-1.13 (NCCL_BLOCKING_WAIT)
    ("[rank1]:[E1127 12:00:00.000000000 ProcessGroupNCCL.cpp:756] [PG ID 0 PG GUID 0(default_pg) "
     "Rank 1] Work WorkNCCL(SeqNum=57, OpType=ALLREDUCE, NumelIn=1024, NumelOut=1024, "
     "Timeout(ms)=600000) timed out in blocking wait.\n", "collective-timeout"),
    ("[E ProcessGroupNCCL.cpp:821] [Rank 1] Work WorkNCCL(SeqNum=57, OpType=BROADCAST, "
     "Timeout(ms)=600000) timed out in blocking wait (TORCH_NCCL_BLOCKING_WAIT=1).\n",
     "collective-timeout"),
    (TRACE + "RuntimeError: [Rank 1] Work WorkNCCL(OpType=ALLREDUCE, TensorShape=[1024], "
     "Timeout(ms)=600000) timed out in blocking wait (NCCL_BLOCKING_WAIT=1).\n",
     "collective-timeout"),
    # NCCL's multi-line "Last error:" under a logger that stamps every line with its time
    ("ncclUnhandledCudaError: Call to CUDA function failed.\n2024-05-01 12:00:01.123 Last "
     "error:\n2024-05-01 12:00:01.123 Cuda failure 'operation not supported'\n",
     "nccl-cuda-unsupported"),
]

HEALTHY = [
    "node1:3996:4012 [0] NCCL INFO transport/p2p.cc:152 Cuda Host Alloc Size 4 pointer "
    "0x7f3e00000000\n",
    # NCCL retries a refused connect while the peer starts listening
    "node1:3996:4012 [0] NCCL INFO Call to connect returned Connection refused, retrying\n",
    "node1:3996:4012 [0] NCCL INFO NET/Socket : Using [0]eth0:10.0.0.1<0>\n",
    "node1:3996:4012 [0] NCCL INFO Allocated 9637892 bytes of shared memory in "
    "/dev/shm/nccl-3P3hmT\n",
    # NCCL's CUDACHECKIGNORE: an INFO line, NCCL goes on
    "node1:3996:4012 [0] NCCL INFO Cuda failure 'operation not supported'\n",
    "[rank0]:[I ProcessGroupNCCL.cpp:852] [PG 0 Rank 0] ProcessGroupNCCL initialization "
    "options: TIMEOUT(ms): 600000, USE_HIGH_PRIORITY_STREAM: 0\n",
    "step 100: collective timeout set to 1800 s; NCCL version 2.21.5\n",
    "TORCH_NCCL_BLOCKING_WAIT=1: a collective that times out in blocking wait raises\n",
    # NCCL's NVML lookup of a GPU it cannot see (a container, MIG): a warning it works past
    "node1:123:150 [0] misc/nvmlwrap.cc:183 NCCL WARN nvmlDeviceGetHandleByPciBusId() failed: "
    "Not Found\nnode1:123:150 [0] NCCL INFO comm 0x5 rank 0 nranks 2 cudaDev 0 busId 1000 - "
    "Init COMPLETE\n",
]
