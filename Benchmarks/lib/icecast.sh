# shellcheck shell=bash
# A real Icecast 2 on loopback for the radio benchmarks (radio-cpu.sh, radio-memory.sh), after
# nodes.sh's bench_init (its $work, its pids):
#
#   bench_icecast                    starts it; its port: $ice (source password srcpw, admin adminpw)
#   bench_icecast_source MOUNT ARGS...   FFmpeg feeding pink noise (stereo, 44.1 kHz, the seed of
#                                    every benchmark) to MOUNT in real time, ARGS its encoder's options
bench_icecast() {
    chmod 777 "$work"
    ice=$(bench_free_port)
    local owner=""
    [ "$(id -u)" -ne 0 ] || owner='<changeowner><user>icecast2</user><group>icecast</group></changeowner>'
    cat >"$work/icecast.xml" <<XML
<icecast><location>bench</location><admin>bench@localhost</admin>
<limits><clients>20</clients><sources>4</sources><source-timeout>10</source-timeout><burst-size>65535</burst-size></limits>
<authentication><source-password>srcpw</source-password><admin-user>admin</admin-user><admin-password>adminpw</admin-password></authentication>
<hostname>127.0.0.1</hostname><listen-socket><port>$ice</port><bind-address>127.0.0.1</bind-address></listen-socket>
<paths><basedir>/usr/share/icecast2</basedir><logdir>$work</logdir><webroot>/usr/share/icecast2/web</webroot>
<adminroot>/usr/share/icecast2/admin</adminroot></paths><logging><errorlog>icecast.log</errorlog><loglevel>2</loglevel></logging>
<security><chroot>0</chroot>$owner</security></icecast>
XML
    /usr/bin/icecast2 -c "$work/icecast.xml" >/dev/null 2>&1 &
    pids+=($!)
    sleep 1
}

bench_icecast_source() {
    local mount=$1
    shift
    ffmpeg -nostdin -loglevel error -re -f lavfi -i "anoisesrc=color=pink:sample_rate=44100:amplitude=0.25:seed=29" -ac 2 "$@" \
        "icecast://source:srcpw@127.0.0.1:$ice$mount" &
    pids+=($!)
}
