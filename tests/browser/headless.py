"""Headless chromium driver for the browser tests: DOM dumps, console errors,
screenshots and a local HTTP server for pages that fetch files.

Chromium's stderr log (--enable-logging=stderr --v=0) carries console messages
as `INFO:CONSOLE:<line>] "<message>", source: <url> (<line>)` without their
level, so console_errors() keeps the messages that are uncaught exceptions or
mention an error, plus failed resource loads.
"""
import contextlib
import functools
import http.server
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading

CHROMIUM = os.environ.get('OMPTRACE_CHROMIUM', 'chromium')
_CONSOLE = re.compile(r':CONSOLE:\d+\] "(.*)", source: (.*)$')
_TIMEOUT = 120  # seconds of wall time; virtual time decides what the page sees


def _run(args, wait_ms):
    """Run headless chromium with its own profile; return (stdout, stderr)."""
    profile = tempfile.mkdtemp(prefix='omptrace-chromium-')
    cmd = [CHROMIUM, '--headless', '--no-sandbox', '--disable-gpu',
           '--no-first-run', '--disable-extensions', '--hide-scrollbars',
           '--user-data-dir=' + profile, '--enable-logging=stderr', '--v=0',
           '--virtual-time-budget=%d' % wait_ms] + args
    # its own process group, so a page that never settles (a hung app keeps
    # virtual time from running out) takes all of chromium's processes down
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    try:
        out, err = p.communicate(timeout=_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise RuntimeError('chromium did not finish within %d s: the page never settled'
                           % _TIMEOUT) from None
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return p.returncode, out, err


def console_errors(stderr):
    """Console messages that report an error (deduplicated, in order)."""
    out = []
    for line in stderr.splitlines():
        m = _CONSOLE.search(line)
        if not m:
            continue
        msg = m.group(1)
        if ('Uncaught' in msg or 'rror' in msg or 'Failed to load' in msg) \
                and msg not in out:
            out.append(msg)
    return out


def _url(url_or_path):
    if re.match(r'^[a-z]+:', url_or_path):
        return url_or_path
    return 'file://' + os.path.abspath(url_or_path)


def dom(url_or_path, wait_ms=5000):
    """The DOM after wait_ms of virtual time and the page's console errors."""
    rc, out, err = _run(['--dump-dom', _url(url_or_path)], wait_ms)
    if rc != 0:
        raise RuntimeError('chromium exited with %d: %s' % (rc, err[-500:]))
    return out, console_errors(err)


def screenshot(url, png_path, size=(1280, 800), wait_ms=5000):
    """Save a PNG of the page at the given window size; return console errors."""
    rc, _, err = _run(['--screenshot=' + os.path.abspath(png_path),
                       '--window-size=%d,%d' % size, _url(url)], wait_ms)
    if rc != 0 or not os.path.exists(png_path):
        raise RuntimeError('chromium screenshot failed (%d): %s' % (rc, err[-500:]))
    return console_errors(err)


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextlib.contextmanager
def serve(directory):
    """Serve directory on 127.0.0.1 at a free port; yields the base URL."""
    handler = functools.partial(_Quiet, directory=directory)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield 'http://127.0.0.1:%d/' % srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()


@functools.lru_cache(maxsize=1)
def available():
    """(True, '') when headless chromium can load a page, else (False, why)."""
    if shutil.which(CHROMIUM) is None:
        return False, '%s not found (apt-get install chromium)' % CHROMIUM
    with tempfile.TemporaryDirectory() as d:
        page = os.path.join(d, 'probe.html')
        with open(page, 'w', encoding='utf-8') as f:
            f.write('<html><body><p id="p"></p><script>'
                    'document.getElementById("p").textContent="ok-" + (6*7);'
                    '</script></body></html>')
        try:
            text, _ = dom(page, wait_ms=1000)
        except (RuntimeError, OSError, subprocess.TimeoutExpired) as e:
            return False, 'headless chromium cannot start: %s' % str(e)[:200]
    if 'ok-42' not in text:
        return False, 'headless chromium ran no script'
    return True, ''
