"""CUDA errors by identity: one error, whichever library reports it and in whose words.

The same CUDA error reaches a log in many forms: torch's ``CUDA error: out of memory``,
torch 1.x's ``cuda runtime error (2) : out of memory``, NCCL's ``Cuda failure 2 'out of
memory'``, Triton's ``Triton Error [CUDA]: out of memory``, torch's JIT and PyCUDA through the
driver API (``CUDA driver error: ...``, ``cuMemAlloc failed: ...``), TensorRT-LLM's ``CUDA
runtime error in cudaMalloc(...): ...``, LMDeploy's TurboMind (``[TM][ERROR] CUDA runtime
error: ...``), ROCm's torch (``HIP error: ...``), or by the error's
name: the runtime's (``cudaErrorMemoryAllocation``, CuPy) or the driver's
(``CUDA_ERROR_OUT_OF_MEMORY``, JAX, Numba).  A rule names the errors it is about
(``cuda_errors:`` in ``rules.yaml``) and gets a pattern for each form.

The error numbers are not used: CUDA renumbered its runtime errors in 10.1 (an illegal
address was 77, now 700), and every form that prints a number prints the message too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class CudaError:
    runtime: str
    """The runtime API's name (``cudaError_t``)."""
    driver: str | None
    """The driver API's name (``CUresult``), where it has one of its own."""
    message: str
    """``cudaGetErrorString``'s text (``cuGetErrorString`` says the same)."""
    plain: bool
    """Whether the message alone names the error (no other program's words hold it); a
    short one (``out of memory``) counts only in a CUDA error's own words."""


CUDA_ERRORS = {error.runtime: error for error in (
    CudaError("cudaErrorMemoryAllocation", "CUDA_ERROR_OUT_OF_MEMORY", "out of memory", False),
    CudaError("cudaErrorIllegalAddress", "CUDA_ERROR_ILLEGAL_ADDRESS",
              "an illegal memory access was encountered", True),
    CudaError("cudaErrorAssert", "CUDA_ERROR_ASSERT", "device-side assert triggered", True),
    CudaError("cudaErrorMisalignedAddress", "CUDA_ERROR_MISALIGNED_ADDRESS",
              "misaligned address", False),
    CudaError("cudaErrorIllegalInstruction", "CUDA_ERROR_ILLEGAL_INSTRUCTION",
              "an illegal instruction was encountered", True),
    CudaError("cudaErrorLaunchFailure", "CUDA_ERROR_LAUNCH_FAILED",
              "unspecified launch failure", False),
    CudaError("cudaErrorECCUncorrectable", "CUDA_ERROR_ECC_UNCORRECTABLE",
              "uncorrectable ECC error encountered", True),
    CudaError("cudaErrorNvlinkUncorrectable", "CUDA_ERROR_NVLINK_UNCORRECTABLE",
              "uncorrectable NVLink error detected during the execution", True),
    CudaError("cudaErrorSystemNotReady", "CUDA_ERROR_SYSTEM_NOT_READY",
              "system not yet initialized", False),
    CudaError("cudaErrorCompatNotSupportedOnDevice", "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE",
              "forward compatibility was attempted on non supported HW", True),
    CudaError("cudaErrorInsufficientDriver", None,
              "CUDA driver version is insufficient for CUDA runtime version", True),
    CudaError("cudaErrorUnsupportedPtxVersion", "CUDA_ERROR_UNSUPPORTED_PTX_VERSION",
              "the provided PTX was compiled with an unsupported toolchain", True),
    CudaError("cudaErrorDevicesUnavailable", "CUDA_ERROR_DEVICE_UNAVAILABLE",
              "CUDA-capable device(s) is/are busy or unavailable", True),
    CudaError("cudaErrorTooManyPeers", "CUDA_ERROR_TOO_MANY_PEERS",
              "peer mapping resources exhausted", True),
    CudaError("cudaErrorPeerAccessUnsupported", "CUDA_ERROR_PEER_ACCESS_UNSUPPORTED",
              "peer access is not supported between these two devices", True),
    CudaError("cudaErrorNoKernelImageForDevice", "CUDA_ERROR_NO_BINARY_FOR_GPU",
              "no kernel image is available for execution on the device", True),
    CudaError("cudaErrorInvalidDeviceFunction", None, "invalid device function", False),
    CudaError("cudaErrorInvalidKernelImage", "CUDA_ERROR_INVALID_IMAGE",
              "device kernel image is invalid", True),
    CudaError("cudaErrorLaunchTimeout", "CUDA_ERROR_LAUNCH_TIMEOUT",
              "the launch timed out and was terminated", True),
    CudaError("cudaErrorInvalidDevice", "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal",
              True),
    CudaError("cudaErrorStubLibrary", "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library",
              True),
    CudaError("cudaErrorSystemDriverMismatch", "CUDA_ERROR_SYSTEM_DRIVER_MISMATCH",
              "system has unsupported display driver / cuda driver combination", True),
)}

WRAPPERS = (
    "(?:CUDA|HIP) [Ee]rror: ",                  # torch (c10's C10_CUDA_CHECK), ROCm's torch
    "cuda runtime error \\(\\d{1,4}\\) : ",     # torch 1.x (THC's THCudaCheck)
    "Cuda failure (?:\\d{1,4} )?'",             # NCCL's CUDACHECK
    "CUDA failure [^\\n']{0,200}'",             # nccl-tests' CUDACHECK (file:line first)
    "Triton Error \\[CUDA\\]: ",
    "CUDA driver error: ",                      # torch's driver API calls (NVRTC, jiterator)
    "cu[A-Z]\\w{1,40} failed: ",                # PyCUDA (cuMemAlloc failed: out of memory)
    "CUDA runtime error in [^\\n]{0,300}?: ",   # TensorRT-LLM's check_cuda_error
    "\\[TM\\]\\[ERROR\\] CUDA runtime error: ",  # LMDeploy TurboMind's check_cuda_error
)


def patterns(runtime: str) -> list[str]:
    """The patterns of the error named ``runtime`` in each form it is reported in."""
    error = CUDA_ERRORS[runtime]
    message = re.escape(error.message).replace("\\ ", " ")
    found = [f"{error.runtime}\\b"]
    if error.plain:
        found += [f"{error.driver}\\b"] if error.driver else []
        return [*found, message]
    if error.driver:
        # not the name alone: TensorFlow's and XLA's allocators log a failed try by it and go
        # on with a smaller one ("failed to allocate ... from device: CUDA_ERROR_OUT_OF_MEMORY")
        found += [f"results in {error.driver}\\b",
                  f"XlaRuntimeError: [^\\n]{{0,300}}?{error.driver}\\b"]
    return found + [wrapper + message for wrapper in WRAPPERS]
