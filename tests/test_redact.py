from safelaunch.redact import REDACTED, redact_env


def test_secret_names_and_values_are_redacted():
    env = {"VAST_API_KEY": "abcdef123456", "HF_TOKEN": "hf_xyzxyz", "PATH": "/bin",
           "DB_PASSWORD": "hunter22", "NOTE": "key is abcdef123456", "AWS_CREDENTIALS": "c"}
    out = redact_env(env)
    assert out["VAST_API_KEY"] == out["HF_TOKEN"] == out["DB_PASSWORD"] == REDACTED
    assert out["AWS_CREDENTIALS"] == REDACTED
    assert out["PATH"] == "/bin"
    assert out["NOTE"] == f"key is {REDACTED}"
