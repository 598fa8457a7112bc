end_instance() {
  if [ -z "$${CONTAINER_API_KEY:-}" ] || [ -z "$${CONTAINER_ID:-}" ]; then
    say "CONTAINER_API_KEY or CONTAINER_ID is not set: cannot $$1 this instance; it is STILL RUNNING and costs money until you $$1 it"
    return 0
  fi
  say "asking VastAI to $$1 this instance"
  # 429, 5xx and network errors are retried with backoff; anything else, or running out of
  # tries, is said plainly: the instance keeps running and billing.
  if answer=$$(python3 - "$$1" 2>&1 <<'PY'
import json, os, sys, time, urllib.error, urllib.request
action = sys.argv[1]
instance = os.environ["CONTAINER_ID"].strip()
if not instance.isdigit():
    print("CONTAINER_ID is not an instance number")
    sys.exit(1)
base = os.environ.get("SAFELAUNCH_VAST_API", "https://console.vast.ai").rstrip("/")
try:
    delay = min(max(float(os.environ.get("SAFELAUNCH_VAST_RETRY_DELAY", "2")), 0.0), 60.0)
except ValueError:
    delay = 2.0
url = base + "/api/v0/instances/" + instance + "/"
body = None if action == "destroy" else json.dumps({"state": "stopped"}).encode()
headers = {"Authorization": "Bearer " + os.environ["CONTAINER_API_KEY"],
           "Content-Type": "application/json"}
tries = 6
last = "no answer"
for attempt in range(tries):
    request = urllib.request.Request(url, data=body, headers=headers,
                                     method="DELETE" if action == "destroy" else "PUT")
    try:
        urllib.request.urlopen(request, timeout=30).read(65536)
        sys.exit(0)
    except urllib.error.HTTPError as exc:
        text = exc.read(300).decode("utf-8", "replace").strip().replace("\n", " ")
        last = "HTTP %d %s" % (exc.code, text)
        if exc.code != 429 and exc.code < 500:
            print(last[:300])
            sys.exit(1)
    except (urllib.error.URLError, OSError) as exc:
        last = "network error: %s" % (getattr(exc, "reason", None) or exc)
    if attempt < tries - 1:
        time.sleep(delay * 2 ** attempt)
print("%s after %d tries" % (last[:300], tries))
sys.exit(1)
PY
  ); then
    say "VastAI accepted: this instance will $$1"
  else
    say "could not $$1 this instance ($$answer): it is STILL RUNNING and costs money; $$1 it in the VastAI console or with 'vastai $$1 instance $$CONTAINER_ID'"
  fi
}
keep_on_failure=$keep_on_failure
if [ "$$1" -eq 0 ] || [ "$$keep_on_failure" = no ]; then
  end_instance $action
else
  say "leaving the failed instance running for inspection (--keep-on-failure)"
fi
