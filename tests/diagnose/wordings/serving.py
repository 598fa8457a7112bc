"""The wordings of the LLM serving and RL post-training stacks (vLLM 0.4 to 0.33, SGLang 0.3
to 0.5, Ray 2.9 to 2.60, TRL 0.17 to 1.16, verl 0.3 to 0.5, TensorRT-LLM) as their sources
print them, diagnosed as their rules; and the healthy lines next to them that must not be.
Each text is copied from the library's source at the release named beside it."""

from __future__ import annotations

from functools import partial

from wordings import raised

TRACE = "Traceback (most recent call last):\n  File \"serve.py\", line 42, in <module>\n"


_raised = partial(raised, trace=TRACE)


# vLLM 0.11+ validates its configs as pydantic dataclasses: a ValueError in __post_init__
# reaches the log as a ValidationError whose line starts "  Value error, ".
def _pydantic(config: str, message: str) -> str:
    return (TRACE + "    engine_args.create_engine_config()\n"
            "pydantic_core._pydantic_core.ValidationError: 1 validation error for " + config
            + "\n  Value error, " + message + " [type=value_error, input_value=ArgsKwargs((), "
            "{'model': 'Qwen/Qwen2.5-7B-Instruct'}), input_type=ArgsKwargs]\n"
            "    For further information visit https://errors.pydantic.dev/2.11/v/value_error\n")


WORDINGS = [
    # --- vllm-startup-memory-taken ------------------------------------------------------
    # vLLM 0.11.0 (v1/worker/gpu_worker.py init_device)
    (_raised("self.worker.init_device()",
             "ValueError: Free memory on device (30.12/79.19 GiB) on startup is less than desired "
             "GPU memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or reduce "
             "GPU memory used by other processes."),
     "vllm-startup-memory-taken"),
    # vLLM 0.33.0 (v1/worker/utils.py): the device is named
    (_raised("self.requested_memory = request_memory(init_snapshot, self.cache_config)",
             "ValueError: Free memory on device cuda:0 (30.12/79.19 GiB) on startup is less than "
             "desired GPU memory utilization (0.9, 71.27 GiB). Decrease GPU memory utilization or "
             "reduce GPU memory used by other processes."),
     "vllm-startup-memory-taken"),
    # vLLM 0.33.0 (v1/worker/utils.py), weights held by another process
    (_raised("self.requested_memory = request_memory(init_snapshot, self.cache_config)",
             "ValueError: Free memory on device cuda:1 (20.5/79.19 GiB) on startup is less than "
             "the engine's budget after excluding external process's weights (0.9, 56.27 GiB). "
             "Decrease GPU memory utilization or reduce GPU memory used by other processes."),
     "vllm-startup-memory-taken"),
    # vLLM 0.6.3 (worker/worker.py determine_num_available_blocks)
    (_raised("num_gpu_blocks, num_cpu_blocks = self.determine_num_available_blocks()",
             "AssertionError: Error in memory profiling. Initial free memory 42359832576, current "
             "free memory 60123365376. This happens when the GPU memory was not properly cleaned "
             "up before initializing the vLLM instance."),
     "vllm-startup-memory-taken"),
    # vLLM 0.4.2 (worker/worker.py)
    (_raised("assert peak_memory > 0, (",
             "AssertionError: Error in memory profiling. This happens when the GPU memory was not "
             "properly cleaned up before initializing the vLLM instance."),
     "vllm-startup-memory-taken"),
    # vLLM 0.8.5 (worker/worker.py, V0 engine)
    (_raised("assert self.baseline_snapshot.cuda_memory <= cuda_memory, (",
             "AssertionError: Error in memory profiling. Initial used memory 1073741824, "
             "currently used memory 536870912. This happens when the GPU memory was not properly "
             "cleaned up before initializing the vLLM instance."),
     "vllm-startup-memory-taken"),
    # vLLM 0.33.0 (v1/worker/gpu_worker.py determine_available_memory)
    (_raised("assert init_free_memory >= free_gpu_memory, (",
             "AssertionError: Error in memory profiling. Initial free memory 40.1 GiB, current "
             "free memory 52.3 GiB. This happens when other processes sharing the same container "
             "release GPU memory while vLLM is profiling during initialization. To fix this, "
             "ensure consistent GPU memory allocation or isolate vLLM in its own container."),
     "vllm-startup-memory-taken"),
    # --- sglang-memory-unbalanced -------------------------------------------------------
    # SGLang 0.3.6 (model_executor/model_runner.py)
    (_raised("min_per_gpu_memory = self.init_torch_distributed()",
             "ValueError: The memory capacity is unbalanced. Some GPUs may be occupied by other "
             "processes."),
     "sglang-memory-unbalanced"),
    # SGLang 0.5.23 (distributed/bootstrap.py _check_tp_memory_balance)
    (_raised("_check_tp_memory_balance(pre_model_load_memory=pre, local_gpu_memory=local)",
             "RuntimeError: The memory capacity is unbalanced. Some GPUs may be occupied by other "
             "processes. pre_model_load_memory=30.52, local_gpu_memory=78.61, "
             "local_gpu_memory * 0.9=70.749"),
     "sglang-memory-unbalanced"),
    # --- serving-prefill-memory: SGLang 0.3.6 / 0.4.6 (model_runner.py) and 0.5.23
    # (pool_configurator.py, with the current value appended) --------------------------------
    (_raised("raise RuntimeError(msg)",
             "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static. "
             "Current value: mem_fraction_static=0.62"),
     "serving-prefill-memory"),
    # --- quantization-gpu-too-old -------------------------------------------------------
    # vLLM 0.4.2 (model_executor/model_loader/loader.py)
    (_raised("quant_config = _get_quantization_config(model_config, load_config)",
             "ValueError: The quantization method fp8 is not supported for the current GPU. "
             "Minimum capability: 89. Current capability: 80."),
     "quantization-gpu-too-old"),
    # vLLM 0.8.5 (config.py), a hyphenated method name
    (_raised("quant_config = VllmConfig._get_quantization_config(model_config, load_config)",
             "ValueError: The quantization method compressed-tensors is not supported for the "
             "current GPU. Minimum capability: 75. Current capability: 70."),
     "quantization-gpu-too-old"),
    # vLLM 0.33.0 (config/vllm.py), raised in the pydantic VllmConfig
    (_pydantic("VllmConfig", "The quantization method modelopt_fp4 is not supported for the "
               "current GPU. Minimum capability: 100. Current capability: 90."),
     "quantization-gpu-too-old"),
    # vLLM 0.6.3 .. 0.11.0 and SGLang 0.4.6 .. 0.5.23 compressed_tensors.py: a tuple of strings
    (_raised("self._check_scheme_supported(scheme.get_min_capability())",
             "RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. Min "
             "capability: 80. ', 'Current capability: 75.')"),
     "quantization-gpu-too-old"),
    # vLLM 0.8.5 / 0.11.0 compressed_tensors.py, an exact-capability scheme
    (_raised("self._check_scheme_supported(90, match_exact=True)",
             "RuntimeError: ('Quantization scheme is not supported for ', 'the current GPU. "
             "Required capability: ', '90. Current capability: 80.')"),
     "quantization-gpu-too-old"),
    # vLLM 0.33.0 compressed_tensors.py / quark.py
    (_raised("self._check_scheme_supported(scheme.get_min_capability())",
             "RuntimeError: Quantization scheme is not supported for the current GPU. Min "
             "capability: 89. Current capability: 86."),
     "quantization-gpu-too-old"),
    # --- vllm-local-world-size ----------------------------------------------------------
    # vLLM 0.6.3 (executor/multiproc_gpu_executor.py)
    (_raised("assert tensor_parallel_size <= cuda_device_count, (",
             "AssertionError: please set tensor_parallel_size (8) to less than max local gpu "
             "count (4)"),
     "vllm-local-world-size"),
    # vLLM 0.8.5 (executor/mp_distributed_executor.py)
    (_raised("raise RuntimeError(",
             "RuntimeError: please ensure that world_size (8) is less than than max local gpu "
             "count (4)"),
     "vllm-local-world-size"),
    # vLLM 0.33.0 (config/parallel.py, pydantic ParallelConfig)
    (_pydantic("ParallelConfig", "World size (16) is larger than the number of available GPUs "
               "(8) in this node. If this is intentional and you are using:\n- ray, set "
               "'--distributed-executor-backend ray'.\n- multiprocessing, set '--nnodes' "
               "appropriately."),
     "vllm-local-world-size"),
    # --- verl-rollout-tp-too-large: verl 0.3.0.post1 (sglang_rollout.py) ----------------
    (_raised("assert (tensor_parallel_size <= torch.distributed.get_world_size()",
             "AssertionError: tensor parallel size should be less than or equal to the world "
             "size"),
     "verl-rollout-tp-too-large"),
    # --- vllm-pipeline-unsupported ------------------------------------------------------
    # vLLM 0.4.2 (config.py ParallelConfig._verify_args)
    (_raised("self._verify_args()",
             "NotImplementedError: Pipeline parallelism is not supported yet."),
     "vllm-pipeline-unsupported"),
    # vLLM 0.6.3 / 0.8.5 (engine/llm_engine.py), the offline LLM class
    (_raised("llm = LLM(model=model, pipeline_parallel_size=2)",
             "NotImplementedError: Pipeline parallelism is only supported through AsyncLLMEngine "
             "as performance will be severely degraded otherwise."),
     "vllm-pipeline-unsupported"),
    # vLLM 0.8.5 V1 (v1/executor/multiproc_executor.py)
    (_raised("assert self.world_size == tensor_parallel_size, (",
             "AssertionError: world_size (4) must be equal to the tensor_parallel_size (2). "
             "Pipeline parallelism is not yet implemented in v1"),
     "vllm-pipeline-unsupported"),
    # vLLM 0.6.3 .. 0.33.0 (config: the model lacks SupportsPP)
    (_raised("self.model_config.verify_with_parallel_config(self.parallel_config)",
             "NotImplementedError: Pipeline parallelism is not supported for this model. "
             "Supported models implement the `SupportsPP` interface."),
     "vllm-pipeline-unsupported"),
    # vLLM 0.11.0 Transformers backend (model_executor/models/transformers.py)
    (_raised("self.pipeline_parallel()",
             "ValueError: <class 'transformers.models.gemma3.modeling_gemma3.Gemma3Model'> does "
             "not support pipeline parallel. Please open an issue at https://github.com/huggingface/"
             "transformers/issues/new/choose to request support for this feature. See "
             "https://docs.vllm.ai/en/latest/models/supported_models.html#writing-custom-models "
             "for instructions on how to add support yourself."),
     "vllm-pipeline-unsupported"),
    # --- vllm-max-model-len -------------------------------------------------------------
    # vLLM 0.4.2 (config.py _get_and_verify_max_len)
    (_raised("max_model_len = _get_and_verify_max_len(",
             "ValueError: User-specified max_model_len (65536) is greater than the derived "
             "max_model_len (max_position_embeddings=32768 or model_max_length=None in model's "
             "config.json). This may lead to incorrect model outputs or CUDA errors. Make sure "
             "the value is correct and within the model context size."),
     "vllm-max-model-len"),
    # vLLM 0.11.0 / 0.33.0 (config/model.py, pydantic ModelConfig)
    (_pydantic("ModelConfig", "User-specified max_model_len (65536) is greater than the "
               "derived max_model_len (max_position_embeddings=32768 or model_max_length=None "
               "in model's config.json). To allow overriding this maximum, set the env var "
               "VLLM_ALLOW_LONG_MAX_MODEL_LEN=1. VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used "
               "with extreme caution."),
     "vllm-max-model-len"),
    # --- vllm-kv-cache-memory -----------------------------------------------------------
    # vLLM 0.4.2 .. 0.8.5 (worker/worker.py raise_if_cache_size_invalid)
    (_raised("raise_if_cache_size_invalid(num_gpu_blocks, self.cache_config.block_size,",
             "ValueError: The model's max seq len (131072) is larger than the maximum number of "
             "tokens that can be stored in KV cache (48240). Try increasing "
             "`gpu_memory_utilization` or decreasing `max_model_len` when initializing the "
             "engine."),
     "vllm-kv-cache-memory"),
    # vLLM 0.33.0 (v1/core/kv_cache_planning.py)
    (_raised("check_enough_kv_cache_memory(vllm_config, kv_cache_spec, available_memory)",
             "ValueError: To serve at least one request with the model's max seq len (131072), "
             "(16.0 GiB KV cache is needed, which is larger than the available KV cache memory "
             "(9.12 GiB). Based on the available memory, the estimated maximum model length is "
             "74720. Try increasing `gpu_memory_utilization` (which also controls CPU memory on "
             "the CPU backend) or decreasing `max_model_len` when initializing the engine."),
     "vllm-kv-cache-memory"),
    # vLLM 0.33.0 (v1/core/kv_cache_planning.py)
    (_raised("check_enough_kv_cache_memory(vllm_config, kv_cache_spec, available_memory)",
             "ValueError: No available memory for the cache blocks. Try increasing "
             "`gpu_memory_utilization` when initializing the engine (this flag also controls CPU "
             "memory reservation on the CPU backend, despite its name)."),
     "vllm-kv-cache-memory"),
    # --- ray-not-enough-gpus ------------------------------------------------------------
    # vLLM 0.4.2 (executor/ray_utils.py)
    (_raised("initialize_ray_cluster(parallel_config)",
             "ValueError: The number of required GPUs exceeds the total number of available GPUs "
             "in the cluster."),
     "ray-not-enough-gpus"),
    # vLLM 0.33.0 (v1/executor/ray_utils.py), a TPU cluster
    (_raised("initialize_ray_cluster(self.parallel_config)",
             "ValueError: The number of required TPUs exceeds the total number of available "
             "TPUs in the placement group. Required number of devices: 8. Total number of "
             "devices: 4."),
     "ray-not-enough-gpus"),
    # vLLM 0.6.3 .. 0.11.0 (executor/ray_utils.py _wait_until_pg_ready)
    (_raised("_wait_until_pg_ready(current_placement_group)",
             "ValueError: Cannot provide a placement group of placement_group_specs=[{'GPU': "
             "1.0, 'node:10.0.0.5': 0.001}, {'GPU': 1.0}] within 1800 seconds. See `ray status` "
             "and `ray list nodes` to make sure the cluster has enough resources."),
     "ray-not-enough-gpus"),
    # vLLM 0.33.0 (v1/executor/ray_utils.py), several GPUs asked for
    (_raised("_wait_until_pg_ready(current_placement_group)",
             "ValueError: Cannot provide a placement group requiring 8 GPUs "
             "(placement_group_specs=[{'GPU': 1.0}, {'GPU': 1.0}]) within 1800 seconds.\n"
             "Tensor parallel size may exceed available GPUs in your cluster. Check resources "
             "with `ray status` and `ray list nodes`."),
     "ray-not-enough-gpus"),
    # --- vllm-ray-driver-no-gpu ---------------------------------------------------------
    # vLLM 0.11.0 (executor/ray_utils.py), a TPU driver node
    (_raised("initialize_ray_cluster(self.parallel_config)",
             "ValueError: Current node has no TPU available. current_node_resource={'CPU': 8.0}. "
             "vLLM engine cannot start without TPU. Make sure you have at least 1 TPU available "
             "in a node current_node_id='a1b2' current_ip='10.0.0.5'."),
     "vllm-ray-driver-no-gpu"),
    # vLLM 0.6.3 .. 0.11.0 (executor/ray_utils.py _verify_bundles)
    (_raised("_verify_bundles(placement_group, parallel_config, device_str)",
             "RuntimeError: driver node id 3f1e is not included in a placement group 9c0a. Node "
             "id -> bundles {'77ab': [{'GPU': 1.0}, {'GPU': 1.0}]}. You don't have enough GPUs "
             "available in a current node. Check `ray status` and `ray list nodes` to see if you "
             "have available GPUs in a node `{driver_node_id}` before starting an vLLM engine."),
     "vllm-ray-driver-no-gpu"),
    # --- ray-memory-pressure ------------------------------------------------------------
    # Ray 2.9.3 (raylet node_manager.cc summary)
    ("(raylet) [2024-03-02 10:11:12,345 E 395 395] (raylet) node_manager.cc:3049: 2 Workers "
     "(tasks / actors) killed due to memory pressure (OOM), 0 Workers crashed due to other "
     "reasons at node (ID: e5d9, IP: 10.0.62.231) over the last time period.\n",
     "ray-memory-pressure"),
    # Ray 2.9.3 (the killed task's OutOfMemoryError)
    (_raised("ray.get(refs)",
             "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on "
             "memory.\nMemory on the node (IP: 10.0.62.231, ID: e5d9) where the task was running "
             "was 60.12GB / 62.00GB (0.969677), which exceeds the memory usage threshold of 0.95."),
     "ray-memory-pressure"),
    # Ray 2.60.0 (raylet: several workers killed at once)
    ("(raylet) 3 worker(s) were killed due to the node running low on memory. Memory on the "
     "node (IP: 10.0.62.231, ID: e5d9) was 60.12GB used / 62.00GB limit (0.969677)\n",
     "ray-memory-pressure"),
    # --- tp-size-indivisible ------------------------------------------------------------
    # vLLM 0.4.2 .. 0.33.0 (config: verify_with_parallel_config)
    (_raised("self.model_config.verify_with_parallel_config(self.parallel_config)",
             "ValueError: Total number of attention heads (28) must be divisible by tensor "
             "parallel size (8)."),
     "tp-size-indivisible"),
    # vLLM 0.4.2 (config.py)
    (_raised("self.model_config.verify_with_parallel_config(self.parallel_config)",
             "ValueError: Total number of hidden layers (30) must be divisible by pipeline "
             "parallel size (4)."),
     "tp-size-indivisible"),
    # SGLang 0.5.23 (srt/models/whisper.py and others)
    (_raised("assert num_heads % tp_size == 0, (",
             "AssertionError: num_heads (20) must be divisible by tp_size (8)."),
     "tp-size-indivisible"),
    # SGLang 0.5.23 (srt/arg_groups/cp_tp_group_sharing_hook.py)
    (_raised("raise ValueError(",
             "ValueError: linear_num_key_heads=16 must be divisible by --tp-size=6."),
     "tp-size-indivisible"),
    # --- trl-vllm-server-unreachable: TRL 0.17.0 (host:port) and 0.20.0 .. 1.16.0 (base URL)
    (_raised("self.vllm_client = VLLMClient(args.vllm_server_host, args.vllm_server_port)",
             "ConnectionError: The vLLM server can't be reached at 0.0.0.0:8000 after 240 "
             "seconds. Make sure the server is running by running `trl vllm-serve`."),
     "trl-vllm-server-unreachable"),
    (_raised("self.vllm_client.check_server(total_timeout=args.vllm_server_timeout)",
             "ConnectionError: The vLLM server can't be reached at http://10.0.0.7:8000 after "
             "240.0 seconds. Make sure the server is running by running `vllm serve`."),
     "trl-vllm-server-unreachable"),
    # --- model-parallel-checkpoint-world-size: an engine or model split for TP x PP ranks ---
    # TensorRT-LLM 0.8 (cpp/tensorrt_llm/runtime/worldConfig.cpp WorldConfig::mpi, TLLM_CHECK)
    (_raised("runner = ModelRunnerCpp.from_dir(engine_dir=args.engine_dir, rank=rank)",
             "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: mpiSize == tp * pp "
             "(/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:90)"),
     "model-parallel-checkpoint-world-size"),
    # TensorRT-LLM's later worldConfig.cpp (TLLM_CHECK_WITH_INFO, "Assertion failed: " + info;
    # with context parallelism the message goes on "* CP Size 1")
    (_raised("runner = ModelRunnerCpp.from_dir(engine_dir=args.engine_dir, rank=rank)",
             "RuntimeError: [TensorRT-LLM][ERROR] Assertion failed: MPI size 1 != TP size 2 * PP "
             "size 1 * CP Size 1 (/src/tensorrt_llm/cpp/tensorrt_llm/runtime/worldConfig.cpp:122)"),
     "model-parallel-checkpoint-world-size"),
    # TensorRT-LLM's Python examples and runtime (run.py, summarize.py, model_runner.py)
    (_raised("assert world_size == tensorrt_llm.mpi_world_size(), \\",
             "AssertionError: Engine world size (4) != Runtime world size (1)"),
     "model-parallel-checkpoint-world-size"),
    # vLLM up to 0.7.2 and SGLang (distributed/parallel_state.py initialize_model_parallel),
    # vLLM started by torchrun or a trainer's colocated rollout
    ("[rank1]:   File \"/usr/local/lib/python3.10/site-packages/vllm/distributed/"
     "parallel_state.py\", line 1025, in initialize_model_parallel\n[rank1]:     raise "
     "RuntimeError(\n[rank1]: RuntimeError: world_size (8) is not equal to "
     "tensor_model_parallel_size (4) x pipeline_model_parallel_size (1)\n",
     "model-parallel-checkpoint-world-size"),
    # --- RL post-training stacks' own checks (census of verl, EasyR1, TRL, Hydra) ----------
    # vLLM 0.11+ (config/scheduler.py SchedulerConfig): the same check as a pydantic error
    (_pydantic("SchedulerConfig",
               "max_num_batched_tokens (8192) is smaller than max_model_len (131072). This "
               "effectively limits the maximum sequence length to max_num_batched_tokens and "
               "makes vLLM reject longer sequences. Please increase max_num_batched_tokens or "
               "decrease max_model_len."),
     "vllm-batched-tokens-below-model-len"),
    # EasyR1 (verl/workers/rollout/vllm_rollout_spmd.py): its own form of that limit
    (_raised("raise ValueError(\"max_num_batched_tokens should be greater than prompt_length + "
             "response_length.\")",
             "ValueError: max_num_batched_tokens should be greater than prompt_length + "
             "response_length."),
     "vllm-batched-tokens-below-model-len"),
    # verl 0.1 / 0.2 (workers/fsdp_workers.py): no micro batch size, before verl checked it
    (_raised("assert self.config.actor.ppo_mini_batch_size % "
             "self.config.actor.ppo_micro_batch_size == 0",
             "TypeError: unsupported operand type(s) for %: 'int' and 'NoneType'"),
     "verl-micro-batch-size-unset"),
    # verl 0.3+ (trainer/ppo/ray_trainer.py check_mutually_exclusive), the reference's pass
    (_raised("check_mutually_exclusive(config.actor_rollout_ref.ref.log_prob_micro_batch_size,",
             "ValueError: [actor_rollout_ref.ref] Please set at least one of "
             "'actor_rollout_ref.ref.log_prob_micro_batch_size' or "
             "'actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu'."),
     "verl-micro-batch-size-unset"),
    # Hydra 1.3 with HYDRA_FULL_ERROR=1 (_internal/config_loader_impl.py)
    (_raised("raise ConfigCompositionException(",
             "hydra.errors.ConfigCompositionException: Could not override "
             "'actor_rollout_ref.actor.fsdp_config.grad_offload'.\nTo append to your config use "
             "+actor_rollout_ref.actor.fsdp_config.grad_offload=False"),
     "hydra-override-key-missing"),
    # Hydra 1.3 with HYDRA_FULL_ERROR=1 (_internal/defaults_list.py config_not_found_error):
    # the class name shows only then
    (_raised("raise MissingConfigException(",
             "hydra.errors.MissingConfigException: Cannot find primary config 'ppo_trainer'. "
             "Check that it's in your config search path.\n\nConfig search path:\n\t"
             "provider=hydra, path=pkg://hydra.conf"),
     "hydra-config-not-found"),
    # Hydra 1.3 by default (_internal/config_loader_impl.py ensure_main_config_source_available,
    # printed by _internal/utils.py run_and_report as the message alone), under torchrun
    ("Primary config directory not found.\nCheck that the config directory '/home/u/proj/conf' "
     "exists and readable\n\nSet the environment variable HYDRA_FULL_ERROR=1 for a complete "
     "stack trace.\nE0110 10:00:00.000000 140 torch/distributed/elastic/multiprocessing/"
     "api.py:826] failed (exitcode: 1) local_rank: 0 (pid: 141) of binary: /usr/bin/python\n",
     "hydra-config-not-found"),
    # verl (models/transformers/monkey_patch.py apply_monkey_patch): the query-heads assert,
    # Qwen2.5-7B's 28 heads with ulysses_sequence_parallel_size=8, in a Ray worker
    ("(WorkerDict pid=2211)   File \"/verl/verl/models/transformers/monkey_patch.py\", line 152, "
     "in apply_monkey_patch\n(WorkerDict pid=2211)     assert num_attention_heads % "
     "ulysses_sp_size == 0, f\"num_attention_heads {num_attention_heads} must be divisible by "
     "ulysses_sp_size {ulysses_sp_size}\"\n(WorkerDict pid=2211) AssertionError: "
     "num_attention_heads 28 must be divisible by ulysses_sp_size 8\n",
     "ulysses-heads-indivisible"),
    # omegaconf 2.3 (struct mode): the code reads a key its config does not have
    (_raised("self.config.actor.ppo_epochs",
             "omegaconf.errors.ConfigAttributeError: Key 'actor' is not in struct\n    "
             "full_key: actor_rollout_ref.actor\n    object_type=dict"),
     "hydra-override-key-missing"),
    # TRL 0.12+ on transformers < 4.46: TRL's trainer calls Trainer with the new name
    (_raised("super().__init__(",
             "TypeError: Trainer.__init__() got an unexpected keyword argument "
             "'processing_class'"),
     "trl-too-old-for-processing-class"),
    # TRL before 0.12, a GRPO-era script on it
    (_raised("trainer = GRPOTrainer(model=model, reward_funcs=rewards, processing_class=tok)",
             "TypeError: GRPOTrainer.__init__() got an unexpected keyword argument "
             "'processing_class'"),
     "trl-too-old-for-processing-class"),
    # TRL 0.7 .. 0.9 (trainer/sft_trainer.py): before SFTConfig
    (_raised("raise ValueError(",
             "ValueError: You passed `packing=False` to the SFTTrainer, but you didn't pass a "
             "`dataset_text_field` or `formatting_func` argument."),
     "trl-sft-text-field-missing"),
    # Unsloth: a PEFT-wrapped model without the engine
    (_raised("self.llm = model.vllm_engine; self._last_loaded_step = 0",
             "AttributeError: 'PeftModelForCausalLM' object has no attribute 'vllm_engine'"),
     "unsloth-grpo-without-fast-inference"),
    # --- tensorrt-engine-unloadable: an engine built on another GPU architecture -----------
    # TensorRT 8.6 .. 10 runtime (engine deserialization), under TensorRT-LLM's runtime
    ("[03/27/2024-11:09:02] [TRT] [E] 6: The engine plan file is generated on an incompatible "
     "device, expecting compute 8.0 got compute 8.9, please rebuild.\n[03/27/2024-11:09:02] "
     "[TRT] [E] 2: [engine.cpp::deserializeEngine::1148] Error Code 2: Internal Error "
     "(Assertion engine->deserialize(start, size, allocator, runtime) failed. )\n"
     "  File \"/usr/local/lib/python3.10/dist-packages/tensorrt_llm/runtime/generation.py\", "
     "line 176, in __prepare\n    assert self.engine is not None\nAssertionError\n",
     "tensorrt-engine-unloadable"),
    # TensorRT 7 (the Python API's logger)
    ("[TensorRT] ERROR: INVALID_CONFIG: The engine plan file is generated on an incompatible "
     "device, expecting compute 6.1 got compute 7.5, please rebuild.\n"
     "[TensorRT] ERROR: engine.cpp (1324) - Serialization Error in deserialize: 0 (Core engine "
     "deserialization failure)\n", "tensorrt-engine-unloadable"),
    # --- shm-exhausted: Triton Inference Server's Python backend (python_backend) ---------
    # r22 .. r24 (src/shm_manager.cc): the model instance's region at load
    ("E0622 21:02:46.541164 1 model_lifecycle.cc:621] failed to load 'add_sub' version 1: "
     "Internal: Unable to initialize shared memory key 'triton_python_backend_shm_region_3' to "
     "requested size (67108864 bytes). If you are running Triton inside docker, use "
     "'--shm-size' flag to control the shared memory region size. Each Python backend model "
     "instance requires at least 64MBs of shared memory. Error: No space left on device\n"
     "error: creating server: Internal - failed to load all models\n", "shm-exhausted"),
    # r21 .. r24 (src/shm_manager.cc SharedMemoryManager::GrowIfNeeded): a request's tensors
    ("tritonclient.utils.InferenceServerException: Failed to increase the shared memory pool "
     "size for key 'triton_python_backend_shm_region_2' to 67108864 bytes. If you are running "
     "Triton inside docker, use '--shm-size' flag to control the shared memory region size. "
     "Error: No space left on device\n", "shm-exhausted"),
    # --- tp-size-indivisible: quantized weights split by too large a tensor-parallel size --
    # vLLM 0.5 .. 0.33 (quantization/utils/marlin_utils.py verify_marlin_supports_shape)
    (_raised("verify_marlin_supports_shape(",
             "ValueError: Weight input_size_per_partition = 14784 is not divisible by "
             "min_thread_k = 128. Consider reducing tensor_parallel_size or running with "
             "--quantization gptq."), "tp-size-indivisible"),
    # vLLM 0.7 .. 0.33 (quantization/fp8.py create_weights, utils/fp8_utils.py)
    ("ERROR 03-01 10:12:44 engine.py:400]   File \"/usr/local/lib/python3.12/dist-packages/"
     "vllm/model_executor/layers/quantization/fp8.py\", line 262, in create_weights\n"
     "ERROR 03-01 10:12:44 engine.py:400]     raise ValueError(\nERROR 03-01 10:12:44 "
     "engine.py:400] ValueError: Weight output_partition_size = 576 is not divisible by weight "
     "quantization block_n = 128.\n", "tp-size-indivisible"),
    # vLLM's and SGLang's fused-MoE FP8 layers (Fp8MoEMethod.create_weights)
    (_raised("self.quant_method.create_weights(",
             "ValueError: The output_size of gate's and up's weight = 96 is not divisible by "
             "weight quantization block_n = 128."), "tp-size-indivisible"),
    # --- cuda-oom: torch's allocator under a memory fraction, inside TGI's warm-up ---------
    # TGI 0.9 router (router/src/main.rs), the shard's error quoted whole
    ("thread 'main' panicked at 'Unable to warmup model: Generation(\"Allocation on device 0 "
     "would exceed allowed memory. (out of memory)\\nCurrently allocated     : 16.08 GiB\\n"
     "Requested               : 4.83 GiB\\nDevice limit            : 22.20 GiB\\n\")', "
     "router/src/main.rs:216:18\nError: WebserverFailed\n", "cuda-oom"),
    # --- illegal-instruction: TGI's launcher reports the shard's signal by number --------
    # TGI 1.x .. 3.x (launcher/src/main.rs shard_manager)
    ("2024-03-06T17:53:31.052444Z ERROR shard-manager: text_generation_launcher: Shard process "
     "was signaled to shutdown with signal 4 rank=0\nError: ShardCannotStart\n"
     "2024-03-06T17:53:31.149443Z ERROR text_generation_launcher: Shard 0 failed to start\n",
     "illegal-instruction"),
]


HEALTHY = [
    # TensorRT-LLM's runtime start-up (worldConfig.cpp) and vLLM 0.8's rank assignment
    "[TensorRT-LLM][INFO] MPI size: 2, rank: 0\n[TensorRT-LLM][INFO] Loaded engine size: 6 GiB\n",
    "INFO 05-02 10:11:12 [parallel_state.py:957] rank 3 in world size 8 is assigned as DP rank "
    "0, PP rank 0, TP rank 3\n",
    # vLLM 0.11.0 (v1/worker/gpu_worker.py): the info line about the memory it measured
    "INFO 05-02 10:11:12 [gpu_worker.py:380] Free memory on device (78.2/79.19 GiB) on startup. "
    "Desired GPU memory utilization is (0.9, 71.27 GiB). Actual usage is 14.99 GiB for weight, "
    "1.4 GiB for peak activation.\nINFO 05-02 10:11:40 [api_server.py:1800] Starting vLLM API "
    "server 0 on http://0.0.0.0:8000\n",
    # SGLang 0.5.23: the imbalance check turned off only warns
    "[2025-05-02 10:11:12 TP0] WARNING bootstrap.py:451: The memory capacity is unbalanced. Some "
    "GPUs may be occupied by other processes. pre_model_load_memory=70.1, local_gpu_memory=78.6"
    "\n[2025-05-02 10:11:40 TP0] Load weight end. mem usage=14.99 GB.\n",
    # vLLM 0.6.3 .. 0.33.0 with VLLM_ALLOW_LONG_MAX_MODEL_LEN=1: only a warning
    "WARNING 05-02 10:11:12 config.py:1796] User-specified max_model_len (65536) is greater than "
    "the derived max_model_len (max_position_embeddings=32768 or model_max_length=None in "
    "model's config.json). VLLM_ALLOW_LONG_MAX_MODEL_LEN must be used with extreme caution.\n"
    "INFO 05-02 10:11:40 launcher.py:19] Available routes are:\n",
    # vLLM 0.33.0 (v1/executor/ray_utils.py): the pre-check only warns
    "WARNING 05-02 10:11:12 [ray_utils.py:293] Tensor parallel size (8) exceeds available GPUs "
    "(4). This may result in Ray placement group allocation failures.\n"
    "INFO 05-02 10:11:20 [ray_utils.py:330] Creating a placement group of 8 bundles\n",
    # vLLM 0.33.0 kv-cache planning: the auto-fit info line
    "INFO 05-02 10:11:12 [kv_cache_planning.py:1397] Reducing max_model_len from 131072 to "
    "74720 to fit the available KV cache memory (9.12 GiB)\nINFO 05-02 10:11:20 Maximum "
    "concurrency for 74720 tokens per request: 1.00x\n",
    # SGLang 0.5.23 (managers/tp_worker.py): a small pool only warns
    "[2025-05-02 10:11:12 TP0] WARNING tp_worker.py:560: KV pool holds 40000 tokens, fewer than "
    "--context-length 131072. One full-length request cannot fit. Lower --context-length, raise "
    "--mem-fraction-static, or free memory taken before the pool is sized.\n"
    "[2025-05-02 10:11:40] The server is fired up and ready to roll!\n",
    # Triton's Python backend: a model instance started (its shared memory region made)
    "I0622 21:02:46.541164 1 python_be.cc:2100] TRITONBACKEND_ModelInstanceInitialize: "
    "add_sub_0 (CPU device 0)\nI0622 21:02:46.742118 1 model_lifecycle.cc:693] successfully "
    "loaded 'add_sub' version 1\n",
    # TGI: a shard stopped by the launcher on shutdown
    "2024-03-06T17:53:31.052444Z  INFO shard-manager: text_generation_launcher: Shard "
    "terminated rank=0\n",
]
