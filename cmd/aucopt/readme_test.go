package main_test

// The README's commands, run as printed: every ```sh block of README.md, in order, in
// one scratch directory (so that a model one block writes is there for the next), with
// the built aucopt and aucopt-plot first on $PATH, $HOME a scratch directory holding
// this clone as ~/aucopt, and Go's caches the ones of the test (offline: no proxy, no
// checksum database). Each block starts in the scratch directory, and a cd in it holds
// for the block's later commands, as in a terminal. A line "$ COMMAND" is a command and
// the lines after it, up to the next command, what it must print on standard output (durations
// masked; a line ending in "…" matches any line that starts with the rest, a last line
// "…" any further lines; a command shown without output is checked only to succeed); a block
// without "$" lines is a script, run line by line, whose output is not shown. A block
// is left out only where a comment right above it says why:
//
//	<!-- not run: the reason -->             never (a GPU, a cluster, a two-minute run)
//	<!-- needs ../shared/data -->            skipped, with a message, when the data is absent

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// readmeBlock is one ```sh block of the README.
type readmeBlock struct {
	line     int    // of the opening fence
	notRun   string // the reason it is not run, "" when it is
	needData bool
	steps    []readmeStep
}

// readmeStep is a command and the output the README shows for it (nil: not shown).
type readmeStep struct {
	line int
	cmd  string
	want []string
}

// readmeBlocks parses the README's sh blocks.
func readmeBlocks(t *testing.T, path string) []readmeBlock {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var blocks []readmeBlock
	var cur *readmeBlock
	prev := ""
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && line == "```sh":
			cur = &readmeBlock{line: n}
			if r, ok := strings.CutPrefix(prev, "<!-- not run: "); ok {
				cur.notRun = strings.TrimSuffix(r, " -->")
			}
			cur.needData = prev == "<!-- needs ../shared/data -->"
		case cur != nil && line == "```":
			for i, st := range cur.steps {
				if len(st.want) == 0 {
					cur.steps[i].want = nil // no output shown: none checked
				}
			}
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			if c, ok := strings.CutPrefix(line, "$ "); ok {
				cur.steps = append(cur.steps, readmeStep{line: n, cmd: c, want: []string{}})
			} else if s := len(cur.steps); s > 0 && cur.steps[s-1].want != nil {
				cur.steps[s-1].want = append(cur.steps[s-1].want, line)
			} else if strings.TrimSpace(line) != "" && !strings.HasPrefix(line, "#") {
				cur.steps = append(cur.steps, readmeStep{line: n, cmd: line})
			}
		}
		if strings.TrimSpace(line) != "" {
			prev = line
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: block not closed", cur.line)
	}
	return blocks
}

// durations are the times a run prints, which no two runs share.
var durations = regexp.MustCompile(`\d+(\.\d+)?\s?(ns|µs|ms|s|m)\b`)

// readmeMatch reports whether got is the output want shows. A last line "…" stands
// for any further lines.
func readmeMatch(want, got []string) bool {
	if n := len(want); n > 0 && want[n-1] == "…" && len(got) >= n-1 {
		want, got = want[:n-1], got[:n-1]
	}
	if len(want) != len(got) {
		return false
	}
	for i := range want {
		w, g := durations.ReplaceAllString(want[i], "T"), durations.ReplaceAllString(got[i], "T")
		if p, ok := strings.CutSuffix(w, "…"); ok && strings.HasPrefix(g, p) || w == g {
			continue
		}
		return false
	}
	return true
}

// TestREADME runs the README's shell blocks and compares their output with what the
// README shows.
func TestREADME(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the README's commands take a minute")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skipf("no bash: %v", err)
	}
	blocks := readmeBlocks(t, filepath.Join("..", "..", "README.md"))
	e := newE2E(t)
	dataDir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "data"))
	if err != nil {
		t.Fatal(err)
	}
	haveData := true
	if _, err := os.Stat(filepath.Join(dataDir, "MANIFEST.tsv")); err != nil {
		haveData = false
	}
	home, repo := t.TempDir(), filepath.Join("..", "..")
	if repo, err = filepath.Abs(repo); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(repo, filepath.Join(home, "aucopt")); err != nil {
		t.Fatal(err)
	}
	env := append(e.env, "AUCOPT_DATA="+dataDir, "PATH="+filepath.Dir(e.bin)+string(os.PathListSeparator)+os.Getenv("PATH"),
		"HOME="+home, "GOPROXY=off", "GOSUMDB=off")
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		v, err := exec.Command("go", "env", k).Output()
		if err != nil {
			t.Fatalf("go env %s: %v", k, err)
		}
		env = append(env, k+"="+strings.TrimSpace(string(v)))
	}
	cwdFile := filepath.Join(t.TempDir(), "cwd")
	for _, b := range blocks {
		switch {
		case b.notRun != "":
			t.Logf("README.md:%d: not run: %s", b.line, b.notRun)
			continue
		case b.needData && !haveData:
			t.Logf("README.md:%d: skipped: ../shared/data is absent", b.line)
			continue
		}
		cwd := e.dir
		for _, s := range b.steps {
			var stderr strings.Builder
			// The command, then its working directory into cwdFile for the next one.
			c := exec.Command("bash", "-c", s.cmd+"\nrc=$?; pwd >\"$README_CWD\"; exit $rc")
			c.Dir, c.Env, c.Stderr = cwd, append(env, "README_CWD="+cwdFile), &stderr
			out, err := c.Output() // what the README shows is standard output; progress goes to stderr
			if d, rerr := os.ReadFile(cwdFile); rerr == nil {
				cwd = strings.TrimSpace(string(d))
			}
			if err != nil {
				hint := ""
				if strings.Contains(stderr.String(), "module lookup disabled by GOPROXY=off") {
					hint = "\n(the test runs offline: run go mod download all once to fill the module cache)"
				}
				t.Errorf("README.md:%d: %s\n%v\n%s%s%s", s.line, s.cmd, err, out, stderr.String(), hint)
				continue
			}
			got := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
			if len(out) == 0 {
				got = []string{}
			}
			if s.want != nil && !readmeMatch(s.want, got) {
				t.Errorf("README.md:%d: %s\nthe README shows:\n%s\nit printed:\n%s", s.line, s.cmd, strings.Join(s.want, "\n"), out)
			}
		}
	}
}

// TestReadmeMatch: durations are masked, "…" ends a prefix, anything else is compared
// exactly, line by line.
func TestReadmeMatch(t *testing.T) {
	tests := []struct {
		want, got []string
		ok        bool
	}{
		{[]string{"trained in 0.025s (1 pass)"}, []string{"trained in 1.5s (1 pass)"}, true},
		{[]string{"wrote a.md (86.5 s)"}, []string{"wrote a.md (3m)"}, true},
		{[]string{"test AUC 0.8965"}, []string{"test AUC 0.8966"}, false},
		{[]string{"grid: 299 points; …"}, []string{"grid: 299 points; one pass"}, true},
		{[]string{"grid: 299 points; …"}, []string{"grid: 298 points; one pass"}, false},
		{[]string{"a"}, []string{"a", "b"}, false},
		{[]string{"a", "…"}, []string{"a", "b", "c"}, true},
		{[]string{"a", "…"}, []string{"b", "c"}, false},
		{[]string{}, []string{}, true},
	}
	for _, tt := range tests {
		if got := readmeMatch(tt.want, tt.got); got != tt.ok {
			t.Errorf("readmeMatch(%q, %q) = %v, want %v", tt.want, tt.got, got, tt.ok)
		}
	}
}
