# Sourced: xvfb_start picks a free display, starts Xvfb on it and exports
# DISPLAY; xvfb_stop ends it.  No-op when WIP15_NO_XVFB=1 and DISPLAY is set.
# -noreset: without it the server resets whenever its last client disconnects,
# and a test program connecting during that reset fails in XOpenDisplay (seen
# in about 1 % of piglit runs).
xvfb_start() {
  if [ "${WIP15_NO_XVFB:-}" = 1 ] && [ -n "${DISPLAY:-}" ]; then return 0; fi
  local n
  for n in $(seq 90 599); do
    # a lock left by a server that died (killed test run) frees its display
    if [ -e "/tmp/.X$n-lock" ]; then
      local pid
      pid=$(tr -dc 0-9 < "/tmp/.X$n-lock" 2>/dev/null)
      if [ -n "$pid" ] && ! kill -0 "$pid" 2>/dev/null; then
        rm -f "/tmp/.X$n-lock" "/tmp/.X11-unix/X$n"
      fi
    fi
    if [ ! -e "/tmp/.X$n-lock" ] && [ ! -e "/tmp/.X11-unix/X$n" ]; then
      Xvfb ":$n" -screen 0 1280x1024x24 -nolisten tcp -noreset >/dev/null 2>&1 &
      XVFB_PID=$!
      export DISPLAY=":$n"
      local i
      for i in $(seq 1 50); do
        [ -e "/tmp/.X11-unix/X$n" ] && return 0
        kill -0 "$XVFB_PID" 2>/dev/null || break
        sleep 0.1
      done
    fi
  done
  echo "xvfb.sh: could not start Xvfb" >&2
  return 1
}
xvfb_stop() {
  [ -n "${XVFB_PID:-}" ] && kill "$XVFB_PID" 2>/dev/null; wait "${XVFB_PID:-}" 2>/dev/null || true
}
