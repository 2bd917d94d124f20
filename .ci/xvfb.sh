# Sourced by the scripts that run the app under Xvfb: `start_xvfb` finds a free X display,
# starts Xvfb on it (WxHxDEPTH screen, default 1280x1400x24), exports DISPLAY and a runtime
# directory, and leaves the server's PID in XVFB_PID for the caller to stop.
start_xvfb() {
    local screen="${1:-1280x1400x24}" n display=""
    for n in $(seq 90 150); do
        if [ ! -e "/tmp/.X11-unix/X$n" ] && [ ! -e "/tmp/.X$n-lock" ]; then
            display=":$n"
            break
        fi
    done
    [ -n "$display" ] || { echo "no free X display" >&2; return 1; }
    Xvfb "$display" -screen 0 "$screen" -nolisten tcp >/dev/null 2>&1 &
    XVFB_PID=$!
    export DISPLAY="$display"
    export XDG_RUNTIME_DIR="${XDG_RUNTIME_DIR:-$(mktemp -d)}"
    sleep 1
}
