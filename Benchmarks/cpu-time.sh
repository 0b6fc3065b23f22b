# Sourced by run.sh and sounds.sh: a process's CPU time over a window, precise.
# /proc/PID/stat counts 10 ms ticks (±0.017 % of a core over 60 s, a tenth of a real-time sound's
# figure); each thread's /proc/PID/task/TID/schedstat counts nanoseconds but forgets a thread
# once it has exited. So: `cpu_snapshot PID` prints the ticks and every live thread's ns, and
# `cpu_seconds SNAPSHOT0 SNAPSHOT1` sums the threads' ns over the window when no thread exited
# in it (a thread born in it counts from 0), and falls back to the ticks when one did.
cpu_snapshot() {
    local t
    echo "ticks $(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null)"
    for t in /proc/"$1"/task/*; do
        echo "${t##*/} $(cut -d' ' -f1 "$t/schedstat" 2>/dev/null)"
    done
}
cpu_seconds() {
    awk -v hz="$(getconf CLK_TCK)" -v first="$1" -v second="$2" 'BEGIN {
        n = split(first, a, "\n"); for (i = 1; i <= n; i++) { split(a[i], f, " "); before[f[1]] = f[2] }
        n = split(second, b, "\n"); for (i = 1; i <= n; i++) { split(b[i], f, " "); after[f[1]] = f[2] }
        exited = 0; ns = 0
        for (t in before) if (t != "ticks" && !(t in after)) exited = 1
        for (t in after) if (t != "ticks") ns += after[t] - ((t in before) ? before[t] : 0)
        if (exited) printf "%.6f\n", (after["ticks"] - before["ticks"]) / hz
        else printf "%.6f\n", ns / 1e9
    }'
}
