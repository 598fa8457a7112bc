"""The real wordings of torch.distributed's launcher, elastic agent, rendezvous and stores,
across the releases users run (torch 1.13 to 2.13, Python 3.8 to 3.13), each diagnosed as its
rule; and healthy lines that come near them."""

from __future__ import annotations

TRACE = "Traceback (most recent call last):\n  File \"train.py\", line 12, in <module>\n"
RUN_PY = ("Traceback (most recent call last):\n  File \"/usr/local/bin/torchrun\", line 8, in "
          "<module>\n    sys.exit(main())\n")
STORE_FRAME = ("Traceback (most recent call last):\n  File \"/opt/conda/lib/python3.10/site-"
               "packages/torch/distributed/rendezvous.py\", line 189, in _create_c10d_store\n"
               "    return TCPStore(\n")

WORDINGS = [
    # torch 2.3+ agent logs "Received %s death signal" with the signal: Python 3.8-3.10 print
    # an IntEnum as Signals.SIGTERM, 3.11+ as its number; torch 1.13-2.2 used an f-string (15)
    ("W0616 00:37:22.830000 4015698 torch/distributed/elastic/agent/server/api.py:719] "
     "Received Signals.SIGTERM death signal, shutting down workers\n", "launcher-terminated"),
    ("W0616 00:37:22.830000 140 torch/distributed/elastic/agent/server/api.py:753] Received 1 "
     "death signal, shutting down workers\n", "launcher-terminated"),
    ("WARNING:torch.distributed.elastic.agent.server.api:Received 15 death signal, shutting "
     "down workers\n", "launcher-terminated"),
    # torch 1.13-2.13 elastic/multiprocessing/api.py's SignalException (f-string: a number)
    (RUN_PY + "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4015698 "
     "got signal: 15\n", "launcher-terminated"),
    # the same SignalException as a user retyped it (ChatGLM2-6B #262: SIGHUP after nohup)
    ("torch.distributed.elastic.multiprocessing.api.SignalException: Process 81061 got "
     "sigval:1\n", "launcher-terminated"),
    # c10d FileStore::get (torch 1.13) and with its timeout (2.x), raised by TORCH_CHECK
    (TRACE + "RuntimeError: Timeout waiting for key: default_pg/0//cuda//0\n", "store-timeout"),
    (TRACE + "RuntimeError: Timeout waiting for key: /default_pg/0//cuda//0 after 1800000 ms\n",
     "store-timeout"),
    # c10d FileStore::wait (torch 1.13 to 2.13)
    (TRACE + "RuntimeError: Wait timeout\n", "store-timeout"),
    # torch 2.x elastic/utils/store.py barrier and distributed_c10d's store based barrier
    (TRACE + "torch.distributed.DistStoreError: Timed out waiting on barrier on rank 0, for key "
     "prefix: torchelastic/agent/exit_barrier (world_size=2, missing_ranks=[1], "
     "timeout=0:05:00)\n", "store-timeout"),
    (TRACE + "torch.distributed.DistStoreError: Timed out initializing process group in store "
     "based barrier on rank 1, for key: store_based_barrier_key:1 (world_size=2, "
     "num_workers_joined=1, timeout=0:30:00 error=wait timeout after 30000ms, keys: "
     "/store_based_barrier_key:1)\n", "store-timeout"),
    # torch 2.3+ TCPStore client wait, torch 1.13-2.2's
    (TRACE + "torch.distributed.DistStoreError: wait timeout after 1800000ms, keys: "
     "/default_pg//0//cuda//0\n", "store-timeout"),
    (TRACE + "RuntimeError: Socket Timeout\n", "store-timeout"),
    # torch 1.13-2.13 TCPStore server: not every client joined
    (TRACE + "torch.distributed.DistStoreError: Timed out after 901 seconds waiting for clients. "
     "1/2 clients joined.\n", "store-timeout"),
    # c10d socket.cpp's connect timeout: torch 2.x (ms), older (seconds), its first version
    (STORE_FRAME + "torch.distributed.DistNetworkError: The client socket has timed out after "
     "600000ms while trying to connect to (10.0.0.1, 29500).\n", "rendezvous-failed"),
    (STORE_FRAME + "RuntimeError: The client socket has timed out after 1800s while trying to "
     "connect to (node-0, 29500).\n", "rendezvous-failed"),
    ("[W socket.cpp:401] [c10d] The client socket has timed out while trying to connect to "
     "10.0.0.1:29500.\n" + STORE_FRAME + "RuntimeError: The client socket has failed to connect "
     "to any network address on (10.0.0.1, 29500).\n", "rendezvous-failed"),
    # torch 2.x TCPStore.cpp: the client's last try; its ping read back "SSH-" (759714643):
    # an SSH server answers on that port, not the store
    ("[E419 13:27:42.317323202 TCPStore.cpp:390] [c10d] TCP client failed to connect/validate "
     "to host nccl-master:29500 - timed out (try=0, timeout=120000ms): Ping failed, invalid "
     "value returned from server. Expected: 3058192, Got: 759714643\n" + STORE_FRAME
     + "torch.distributed.DistNetworkError: Ping failed, invalid value returned from server. "
     "Expected: 3058192, Got: 759714643\n", "store-address-other-service"),
    # torch 2.x socket.cpp: "of" (older releases said "on")
    (STORE_FRAME + "torch.distributed.DistNetworkError: The client socket has failed to connect "
     "to any network address of (master-0, 23456). The client socket has failed to connect to "
     "master-0:23456 (errno: 113 - No route to host).\n", "master-addr-unreachable"),
    # torch 2.x c10d_rendezvous_backend.py
    (RUN_PY + "torch.distributed.elastic.rendezvous.api.RendezvousConnectionError: The "
     "connection to the C10d store has failed. See inner exception for details.\n",
     "rendezvous-failed"),
    # torch 2.x run.py argparse: an option named by its aliases (torchrun)
    ("usage: torchrun [-h] [--nnodes NNODES] [--nproc-per-node NPROC_PER_NODE]\ntorchrun: "
     "error: argument --node-rank/--node_rank: invalid int value: ''\n",
     "launch-variable-empty"),
    # DeepSpeed 0.17 launcher/runner.py: --num_gpus/--num_accelerators
    ("usage: deepspeed [-h] [-H HOSTFILE]\ndeepspeed: error: argument --num_gpus/"
     "--num_accelerators: invalid int value: ''\n", "launch-variable-empty"),
    # a launcher that declares --nproc_per_node type=int with an alias
    ("launch.py: error: argument --nproc-per-node/--nproc_per_node: invalid int value: "
     "'4(x2)'\n", "nproc-not-a-number"),
    # torch 1.13-2.13 run.py determine_local_world_size
    (RUN_PY + "ValueError: Unsupported nproc_per_node value: --work-dir\n", "nproc-not-a-number"),
    # ... and an empty value: "dist_train.sh ${CONFIG_FILE} ${GPU_NUM}" with the variables unset
    (RUN_PY + "    raise ValueError(f\"Unsupported nproc_per_node value: {nproc_per_node}\")\n"
     "ValueError: Unsupported nproc_per_node value: \n", "launch-variable-empty"),
    (RUN_PY + "    nproc_per_node = determine_local_world_size(args.nproc_per_node)\nValueError: "
     "Cuda is not available.\n", "torch-without-cuda"),
    # torch 1.13-2.13 rendezvous.py env:// handler
    (TRACE + "ValueError: Error initializing torch.distributed using env:// rendezvous: "
     "environment variable MASTER_ADDR expected, but not set\n", "not-launched"),
    # torch 0.4 THD process_group/General.cpp, the env:// method without RANK / WORLD_SIZE
    (TRACE + "RuntimeError: rank is not set but it is required for env:// init method at "
     "/opt/conda/conda-bld/pytorch_1524590031827/work/torch/lib/THD/process_group/General.cpp:17"
     "\n", "not-launched"),
    (TRACE + "RuntimeError: world_size is not set but it is required for env:// init method "
     "at torch/lib/THD/process_group/General.cpp:21\n", "not-launched"),
    (TRACE + "ValueError: Error initializing torch.distributed using tcp:// rendezvous: rank "
     "parameter missing\n", "init-method-without-rank"),
    # torch 2.x distributed_c10d.py (1.13: RuntimeError, the same words)
    (TRACE + "ValueError: Default process group has not been initialized, please make sure to "
     "call init_process_group.\n", "process-group-not-initialized"),
    (TRACE + "ValueError: trying to initialize the default process group twice!\n",
     "process-group-initialized-twice"),
    # torch 2.4+ TCPStore libuv backend, and the socket backend
    (STORE_FRAME + "torch.distributed.DistNetworkError: The server socket has failed to listen "
     "on any local network address. port: 29500, useIpv6: 0, code: -98, name: EADDRINUSE, "
     "message: address already in use\n", "address-in-use"),
    (STORE_FRAME + "torch.distributed.DistNetworkError: The server socket has failed to listen "
     "on any local network address. The server socket has failed to bind to [::]:29500 "
     "(errno: 98 - Address already in use).\n", "address-in-use"),
    # the same on Windows (c10d socket.cpp, WSAEADDRINUSE), English and localised, and the
    # bare text torch 1.x raised
    (STORE_FRAME + "RuntimeError: The server socket has failed to listen on any local network "
     "address. The server socket has failed to bind to [DESKTOP-L9L2GVM]:10086 (system error: "
     "10048 - Only one usage of each socket address (protocol/network address/port) is "
     "normally permitted.).\n", "address-in-use"),
    (STORE_FRAME + "RuntimeError: The server socket has failed to listen on any local network "
     "address. The server socket has failed to bind to [DESKTOP-8H2K]:29500 (system error: "
     "10048 - \u901a\u5e38\u6bcf\u4e2a\u5957\u63a5\u5b57\u5730\u5740(\u534f\u8bae/\u7f51\u7edc\u5730\u5740/"
     "\u7aef\u53e3)\u53ea\u5141\u8bb8\u4f7f\u7528\u4e00\u6b21\u3002).\n", "address-in-use"),
    (STORE_FRAME + "RuntimeError: Only one usage of each socket address (protocol/network "
     "address/port) is normally permitted.\n", "address-in-use"),
    # c10d socket.cpp's retry warning (torch 2.x, and on Windows), the log stopping at it: the
    # address answers nothing (refused would be a store not up yet)
    ("Initializing distributed: GLOBAL_RANK: 1, MEMBER: 2/2\n" + "[W socket.cpp:663] [c10d] "
     "The client socket has failed to connect to [node-0]:29500 (errno: 110 - Connection timed "
     "out).\n" * 2, "master-addr-unreachable"),
    ("[W C:\\actions-runner\\_work\\pytorch\\pytorch\\torch\\csrc\\distributed\\c10d\\socket"
     ".cpp:601] [c10d] The client socket has failed to connect to [node-0]:58152 (system error: "
     "10060 - A connection attempt failed).\n" * 2, "master-addr-unreachable"),
    # the same warning alone, as quoted from a run that stopped at it: a connect that timed
    # out is no line working runs print once and go on after
    ("[W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:10.0.0.1]:"
     "29500 (errno: 110 - Connection timed out).\n", "master-addr-unreachable"),
]

HEALTHY = [
    # the agent's own retry warning before a store that does come up
    "[W220 15:40:19.894087820 TCPStore.cpp:358] [c10d] TCP client failed to connect/validate "
    "to host 192.168.6.2:53489 - retrying (try=0, timeout=600000ms, delay=885ms): Connection "
    "reset\nstep 1 loss 2.30\nstep 2 loss 2.10\n",
    # c10d's connect retry, then a run that goes on; the line quoted alone, once
    "[W socket.cpp:663] [c10d] The client socket has failed to connect to [node-0]:29500 "
    "(errno: 110 - Connection timed out).\nstep 1 loss 2.30\nstep 2 loss 2.10\n",
    "[W socket.cpp:663] [c10d] The client socket has failed to connect to [::ffff:10.0.0.1]:29500 "
    "(errno: 97 - Address family not supported by protocol).\n",
    "INFO:torch.distributed.run:Using nproc_per_node=gpu.\nUsing 8 GPUs: Cuda is available\n"
    "step 1 loss 2.30\n",
    "store: waiting for key default_pg/0 (timeout 1800000 ms)\nstep 1 loss 2.30\n",
    "launcher: --nproc-per-node not given, nproc_per_node value: 1\nstep 1 loss 2.30\n",
    "usage: torchrun [-h] [--node-rank NODE_RANK]\n  --node-rank/--node_rank NODE_RANK  an int\n"
    "step 1 loss 2.30\n",
]
