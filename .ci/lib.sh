# Shared by .ci/local-stack and .ci/test: installs the tools into the project's .venv and
# runs the AWS emulator. Sourced, not executed.

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
VENV="$ROOT/.venv"

# The emulator accepts any credentials; these keep the SDK from looking for real ones.
export AWS_ACCESS_KEY_ID=testing AWS_SECRET_ACCESS_KEY=testing AWS_SESSION_TOKEN=testing
export AWS_REGION=us-east-1 AWS_DEFAULT_REGION=us-east-1 AWS_EC2_METADATA_DISABLED=true
export SAM_CLI_TELEMETRY=0

# Each line says how long the outermost script has run, so a CI log shows where time goes.
export KR_CI_STARTED=${KR_CI_STARTED:-$(date +%s)}
log() {
  local elapsed=$(($(date +%s) - ${KR_CI_STARTED:-$(date +%s)}))
  printf '\033[1m==> [%d:%02d] %s\033[0m\n' $((elapsed / 60)) $((elapsed % 60)) "$*" >&2
}

# Installs moto, cargo-lambda (with its zig), SAM CLI, cfn-lint and schemathesis into .venv,
# once per version of .ci/requirements.txt.
ensure_tools() {
  local stamp="$VENV/.requirements.sha256" want
  want=$(sha256sum "$ROOT/.ci/requirements.txt" | cut -d' ' -f1)
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "installing tools into .venv (moto, cargo-lambda, sam, cfn-lint, schemathesis)"
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$ROOT/.ci/requirements.txt"
    echo "$want" > "$stamp"
  fi
  export PATH="$VENV/bin:$PATH"
  export KR_TOOLS_BIN="$VENV/bin"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_moto PORT LOGFILE: starts moto's server on loopback and waits until it answers.
start_moto() {
  local port=$1 logfile=$2
  "$VENV/bin/python" "$ROOT/.ci/moto_server.py" 127.0.0.1 "$port" >"$logfile" 2>&1 &
  MOTO_PID=$!
  for _ in $(seq 1 100); do
    if curl --max-time 2 -fsS -o /dev/null "http://127.0.0.1:$port/moto-api/" 2>/dev/null; then
      export KR_AWS_ENDPOINT="http://127.0.0.1:$port"
      return 0
    fi
    if ! kill -0 "$MOTO_PID" 2>/dev/null; then break; fi
    sleep 0.2
  done
  echo "moto did not start; its log:" >&2
  cat "$logfile" >&2
  return 1
}
