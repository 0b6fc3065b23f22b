#!/usr/bin/env python3
"""Runs a systemd unit's ExecStart inside a root as systemd would run it, as far as it can be done
without systemd as PID 1 (the package test's root has none):
    unit-exec.py ROOT UNIT_FILE [NAME=VALUE ...]
From the unit: ExecStart, Environment, User (its groups as initgroups gives them, and
SupplementaryGroups), UMask, NoNewPrivileges; in a mount namespace of its own, ProtectSystem=strict
(the root read-only but the StateDirectory and /dev, /proc, /sys), PrivateTmp, ProtectHome; then,
through libseccomp, SystemCallFilter (the groups expanded by this machine's `systemd-analyze
syscall-filter`), SystemCallErrorNumber, RestrictAddressFamilies and MemoryDenyWriteExecute.
Not emulated: DevicePolicy/DeviceAllow (a cgroup's device program), the Protect* settings that
hide kernel files, Restrict{Namespaces,Realtime,SUIDSGID}. NAME=VALUE pairs are added to the
environment (the notify socket, the watchdog). Exits only through exec (or 70 on a setup error)."""
import ctypes
import errno
import os
import shlex
import subprocess
import sys

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 1, 2, 4, 32, 4096, 16384, 1 << 18
CLONE_NEWNS = 0x00020000
SCMP_ACT_ALLOW = 0x7FFF0000
SCMP_CMP_EQ, SCMP_CMP_MASKED_EQ = 4, 7
PROT_WRITE, PROT_EXEC = 2, 4
FAMILIES = {"AF_UNIX": 1, "AF_INET": 2, "AF_INET6": 10, "AF_NETLINK": 16, "AF_PACKET": 17}

libc = ctypes.CDLL(None, use_errno=True)
seccomp = ctypes.CDLL("libseccomp.so.2", use_errno=True)
seccomp.seccomp_init.restype = ctypes.c_void_p
seccomp.seccomp_init.argtypes = [ctypes.c_uint32]


class ArgCmp(ctypes.Structure):
    _fields_ = [("arg", ctypes.c_uint), ("op", ctypes.c_int), ("a", ctypes.c_uint64), ("b", ctypes.c_uint64)]


def fail(message):
    print(f"unit-exec: {message}", file=sys.stderr)
    sys.exit(70)


def unit_settings(path):
    """Every Key=value of the [Service] section; repeated keys in order."""
    settings, section = {}, None
    for line in open(path, encoding="utf-8"):
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[Service]" and "=" in line and not line.startswith("#"):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    return settings


def syscalls(name, seen=None):
    """A syscall, or a @group expanded through systemd-analyze (nested groups too)."""
    if not name.startswith("@"):
        return {name}
    seen = seen if seen is not None else set()
    if name in seen:
        return set()
    seen.add(name)
    listing = subprocess.run(["systemd-analyze", "syscall-filter", name], capture_output=True, text=True, check=True)
    names = set()
    for line in listing.stdout.splitlines()[1:]:
        item = line.strip()
        if item and not item.startswith("#"):
            names |= syscalls(item, seen)
    return names


def add_rule(ctx, action, name, *comparisons):
    number = seccomp.seccomp_syscall_resolve_name(name.encode())
    if number < 0:
        return  # not a syscall on this architecture (systemd skips these too)
    array = (ArgCmp * max(1, len(comparisons)))(*comparisons)
    if seccomp.seccomp_rule_add_array(ctypes.c_void_p(ctx), ctypes.c_uint32(action), number, len(comparisons), array) < 0:
        fail(f"seccomp rule for {name} refused")


def build_filter(settings):
    """The allow list, or None when the unit has no SystemCallFilter."""
    filters = settings.get("SystemCallFilter")
    if not filters:
        return None
    allowed = set()
    for value in filters:
        for item in value.split():
            if item.startswith("~"):
                fail("deny lists (~) are not emulated")
            allowed |= syscalls(item)
    error = settings.get("SystemCallErrorNumber", ["EPERM"])[-1]
    ctx = seccomp.seccomp_init(0x00050000 | getattr(errno, error))
    conditional = {}
    families = " ".join(settings.get("RestrictAddressFamilies", [])).split()
    if families:
        conditional["socket"] = [(ArgCmp(0, SCMP_CMP_EQ, FAMILIES[family], 0),) for family in families]
    if settings.get("MemoryDenyWriteExecute", ["no"])[-1] == "yes":
        both = PROT_WRITE | PROT_EXEC
        conditional["mmap"] = [(ArgCmp(2, SCMP_CMP_MASKED_EQ, both, value),) for value in (0, PROT_WRITE, PROT_EXEC)]
        for name in ("mprotect", "pkey_mprotect"):
            conditional[name] = [(ArgCmp(2, SCMP_CMP_MASKED_EQ, PROT_EXEC, 0),)]
    for name in sorted(allowed):
        if name in conditional:
            for comparisons in conditional[name]:
                add_rule(ctx, SCMP_ACT_ALLOW, name, *comparisons)
        else:
            add_rule(ctx, SCMP_ACT_ALLOW, name)
    return ctx


def accounts(root, user):
    """uid, gid and the groups initgroups gives (its own, those listing it), from the root's files."""
    passwd = {line.split(":")[0]: line.split(":") for line in open(f"{root}/etc/passwd") if line.count(":") >= 6}
    groups = [line.rstrip("\n").split(":") for line in open(f"{root}/etc/group") if line.count(":") >= 3]
    if user not in passwd:
        fail(f"no user {user} in the root")
    uid, gid = int(passwd[user][2]), int(passwd[user][3])
    home, shell = passwd[user][5], passwd[user][6].strip()
    by_name = {fields[0]: int(fields[2]) for fields in groups}
    member_of = {int(fields[2]) for fields in groups if user in fields[3].split(",")}
    return uid, gid, member_of, by_name, home, shell


def mount(source, target, fstype, flags, data=None):
    if libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags, data) != 0:
        fail(f"mount {target}: {os.strerror(ctypes.get_errno())}")


def protect(root, settings):
    """ProtectSystem=strict with the StateDirectory writable, PrivateTmp, ProtectHome."""
    if libc.unshare(CLONE_NEWNS) != 0:
        fail(f"unshare: {os.strerror(ctypes.get_errno())}")
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    if settings.get("PrivateTmp", ["no"])[-1] == "yes":
        for directory in ("tmp", "var/tmp"):
            mount("tmpfs", f"{root}/{directory}", "tmpfs", MS_NOSUID | MS_NODEV, b"mode=1777")
    if settings.get("ProtectHome", ["no"])[-1] == "yes":
        for directory in ("home", "root", "run/user"):
            if os.path.isdir(f"{root}/{directory}"):
                mount("tmpfs", f"{root}/{directory}", "tmpfs", MS_NOSUID | MS_NODEV, b"mode=0755")
                mount("none", f"{root}/{directory}", None, MS_REMOUNT | MS_BIND | MS_RDONLY)
    writable = [f"/var/lib/{name}" for value in settings.get("StateDirectory", []) for name in value.split()]
    writable += [path for value in settings.get("ReadWritePaths", []) for path in value.split()]
    if settings.get("ProtectSystem", ["no"])[-1] == "strict":
        for path in writable:
            mount(f"{root}{path}", f"{root}{path}", None, MS_BIND)
        # The root with its submounts (proc, sys, the binds above), then only its top made
        # read-only: submounts keep their own flags, so the state directory stays writable.
        mount(root, root, None, MS_BIND | MS_REC)
        mount("none", root, None, MS_REMOUNT | MS_BIND | MS_RDONLY)


def main():
    if len(sys.argv) < 3:
        fail("usage: unit-exec.py ROOT UNIT_FILE [NAME=VALUE ...]")
    root, unit = os.path.abspath(sys.argv[1]), sys.argv[2]
    settings = unit_settings(unit)
    argv = shlex.split(settings["ExecStart"][-1])
    environment = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"}
    for value in settings.get("Environment", []):
        environment.update(item.split("=", 1) for item in shlex.split(value))
    environment.update(item.split("=", 1) for item in sys.argv[3:])
    user = settings.get("User", ["root"])[-1]
    uid, gid, groups, by_name, home, shell = accounts(root, user)
    environment.update(USER=user, LOGNAME=user, HOME=home, SHELL=shell)  # what systemd sets for User=
    for value in settings.get("SupplementaryGroups", []):
        groups |= {by_name[name] for name in value.split()}
    groups.add(gid)
    umask = int(settings.get("UMask", ["0022"])[-1], 8)
    ctx = build_filter(settings)
    protect(root, settings)
    os.chroot(root)
    os.chdir("/")
    os.setgroups(sorted(groups))
    os.setgid(gid)
    os.setuid(uid)
    os.umask(umask)
    if settings.get("NoNewPrivileges", ["no"])[-1] == "yes" or ctx is not None:
        if libc.prctl(38, 1, 0, 0, 0) != 0:  # PR_SET_NO_NEW_PRIVS
            fail("PR_SET_NO_NEW_PRIVS refused")
    if ctx is not None and seccomp.seccomp_load(ctypes.c_void_p(ctx)) < 0:
        fail("seccomp_load refused")
    os.execve(argv[0], argv, environment)


main()
