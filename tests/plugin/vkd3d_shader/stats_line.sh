# Sourced by the tests that run a program on kiln's libvkd3d-shader.so.1 with
# KILN_VKD3D_SHADER_STATS=1: the library then prints one line at exit,
#   "kiln vkd3d-shader: N compiles, K by kiln, F forwarded[; S scans, T by kiln, G forwarded]".

# served_by_kiln LINE: true when LINE is that stats line, with at least one compile, every
# compile served by kiln and, if the program scanned, every scan too.
served_by_kiln() {
  [[ $1 =~ ^kiln\ vkd3d-shader:\ ([0-9]+)\ compiles,\ ([0-9]+)\ by\ kiln,\ 0\ forwarded(\;\ ([0-9]+)\ scans,\ ([0-9]+)\ by\ kiln,\ 0\ forwarded)?$ ]] &&
    [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[1]}" != 0 ] &&
    [ "${BASH_REMATCH[4]}" = "${BASH_REMATCH[5]}" ]
}

# served_with_forced LINE: the stats line of a run with KILN_VKD3D_SHADER_FORWARD set: every
# compile served by kiln or forwarded as `forced` (no other reason), at least one of each, and
# every scan kiln's.
served_with_forced() {
  [[ $1 =~ ^kiln\ vkd3d-shader:\ ([0-9]+)\ compiles,\ ([0-9]+)\ by\ kiln,\ ([0-9]+)\ forwarded\ \(forced\ x([0-9]+)\)(\;\ ([0-9]+)\ scans,\ ([0-9]+)\ by\ kiln,\ 0\ forwarded)?$ ]] &&
    [ $((BASH_REMATCH[2] + BASH_REMATCH[3])) = "${BASH_REMATCH[1]}" ] &&
    [ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[4]}" ] && [ "${BASH_REMATCH[2]}" != 0 ] &&
    [ "${BASH_REMATCH[6]}" = "${BASH_REMATCH[7]}" ]
}

# stats_line TEXT: the last stats line in TEXT (empty when there is none).
stats_line() { grep '^kiln vkd3d-shader:' <<<"$1" | tail -n 1; }
