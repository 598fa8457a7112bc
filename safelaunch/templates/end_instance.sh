end_instance() {
  if [ -z "$${CONTAINER_API_KEY:-}" ] || [ -z "$${CONTAINER_ID:-}" ]; then
    say "CONTAINER_API_KEY or CONTAINER_ID is not set: cannot $$1 this instance"
    return 0
  fi
  say "asking VastAI to $$1 this instance"
  python3 - "$$1" <<'PY' || say "could not $$1 the instance"
import json, os, sys, time, urllib.error, urllib.request
action = sys.argv[1]
base = os.environ.get("SAFELAUNCH_VAST_API", "https://console.vast.ai")
url = base + "/api/v0/instances/" + os.environ["CONTAINER_ID"] + "/"
body = None if action == "destroy" else json.dumps({"state": "stopped"}).encode()
headers = {"Authorization": "Bearer " + os.environ["CONTAINER_API_KEY"],
           "Content-Type": "application/json"}
for attempt in range(5):
    request = urllib.request.Request(url, data=body, headers=headers,
                                     method="DELETE" if action == "destroy" else "PUT")
    try:
        urllib.request.urlopen(request, timeout=30).read()
        break
    except urllib.error.HTTPError as exc:
        if exc.code != 429 and exc.code < 500:
            raise
        time.sleep(2 ** attempt)
PY
}
keep_on_failure=$keep_on_failure
if [ "$$code" -eq 0 ] || [ "$$keep_on_failure" = no ]; then
  end_instance $action
else
  say "leaving the failed instance running for inspection (--keep-on-failure)"
fi
