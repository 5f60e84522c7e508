"""A parsed HTML page for the tests of omptrace-summary --format html:
elements with their attributes, parent and text, found by tag and class
(python's html.parser, so the checks do not trust the writer's own
structure), and the page's references to anything outside it."""
import html.parser
import re

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Element:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], ""
        self.classes = (self.attrs.get("class") or "").split()

    def find(self, tag=None, cls=None, **attrs):
        """Descendants with this tag, class and attribute values, in order."""
        out = []
        for c in self.children:
            if ((tag is None or c.tag == tag) and (cls is None or cls in c.classes) and
                    all(c.attrs.get(k.replace("_", "-")) == v for k, v in attrs.items())):
                out.append(c)
            out.extend(c.find(tag, cls, **attrs))
        return out

    def one(self, tag=None, cls=None, **attrs):
        found = self.find(tag, cls, **attrs)
        if len(found) != 1:
            raise AssertionError("%d <%s class=%s %s>, want 1" % (len(found), tag, cls, attrs))
        return found[0]

    def all_text(self):
        return self.text + "".join(c.all_text() for c in self.children)


class _Parser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#root", {}, None)
        self.cur = self.root
        self.errors = []

    def handle_starttag(self, tag, attrs):
        e = Element(tag, attrs, self.cur)
        self.cur.children.append(e)
        if tag not in VOID:
            self.cur = e

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Element(tag, attrs, self.cur))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if self.cur.tag != tag:
            self.errors.append("</%s> closes <%s>" % (tag, self.cur.tag))
            return
        self.cur = self.cur.parent

    def handle_data(self, data):
        self.cur.text += data


def parse(text):
    """(root element, nesting errors)."""
    p = _Parser()
    p.feed(text)
    p.close()
    if p.cur is not p.root:
        p.errors.append("<%s> never closed" % p.cur.tag)
    return p.root, p.errors


def external_refs(text, root):
    """Everything that would make the page load something: src attributes,
    links other than in-page anchors, <link>, <script>, url() and @import."""
    bad = []
    stack = [root]
    while stack:
        e = stack.pop()
        stack.extend(e.children)
        if e.tag in ("script", "link", "iframe", "object", "embed", "img"):
            bad.append("<%s>" % e.tag)
        for k, v in e.attrs.items():
            if k in ("src", "srcset", "data", "xlink:href", "action"):
                bad.append("%s=%r" % (k, v))
            if k == "href" and not (v or "").startswith("#"):
                bad.append("href=%r" % v)
    for pat in (r"https?://", r"url\s*\(", r"@import"):
        if re.search(pat, text):
            bad.append(pat)
    return bad


def strip_states(svg):
    """Per thread, the state of every bin of the timeline svg ("none" for
    bins without a rectangle), from the rectangles' data-first/data-bins."""
    n = int(svg.attrs["data-bins"])
    out = {}
    for g in svg.find("g", "strip"):
        states = ["none"] * n
        for r in g.find("rect"):
            first, k = int(r.attrs["data-first"]), int(r.attrs["data-bins"])
            for b in range(first, first + k):
                if states[b] != "none":
                    raise AssertionError("bin %d drawn twice" % b)
                states[b] = r.attrs["data-state"]
        out[int(g.attrs["data-thread"])] = states
    return out


def state_at(svg, states, t_ns):
    """The state of the bin holding time t_ns (from the first event)."""
    b = (t_ns - int(svg.attrs["data-start-ns"])) // int(svg.attrs["data-bin-ns"])
    return states[b]


# Stacked-bar segments of the thread plot and the threads.threads columns
# each one adds up.
SEGS = {"st-work": ["work_ns"], "st-barrier": ["wait_ns"], "st-serial": ["serial_ns"],
        "st-overhead": ["fork_join_ns", "task_create_ns", "runtime_ns"],
        "st-idle": ["idle_ns"], "st-lost": ["lost_ns"]}


def bar_mismatches(root, thread_rows):
    """Differences between the thread bars and the JSON report's rows."""
    bars = root.one("figure", id="plot-threads").find("g", "bar")
    if len(bars) != len(thread_rows):
        return ["%d thread bars for %d threads" % (len(bars), len(thread_rows))]
    out = []
    for bar, row in zip(bars, thread_rows):
        got = {r.classes[0]: int(r.attrs["data-ns"]) for r in bar.find("rect")}
        want = {c: sum(row[k] for k in ks) for c, ks in SEGS.items()}
        want = {c: v for c, v in want.items() if v}
        if got != want:
            out.append("bar of thread %d: %r, want %r" % (row["thread"], got, want))
    return out
