package main

import (
	"bytes"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
)

func TestRun(t *testing.T) {
	tests := []struct {
		name       string
		args       []string
		env        string
		wantStatus int
		wantOut    []string // substrings of stdout
		wantErr    []string // substrings of stderr
	}{
		{"no args prints help", nil, "", 0, []string{"Commands:", "backends"}, nil},
		{"help", []string{"help"}, "", 0, []string{"backends"}, nil},
		{"unknown command", []string{"trian"}, "", 2, nil, []string{`unknown command "trian": did you mean train? (commands: train, predict, eval,`}},
		{"version", []string{"version"}, "", 0, []string{"aucopt " + version + " (go"}, nil},
		{"--version", []string{"--version"}, "", 0, []string{"aucopt " + version + " (go"}, nil},
		{"help command", []string{"help", "train"}, "", 0, []string{"Usage: aucopt train", "--algo"}, nil},
		{"help plot kind", []string{"help", "plot", "convergence"}, "", 0, []string{"Usage: aucopt plot convergence"}, nil},
		{"plot help", []string{"plot", "--help"}, "", 0, []string{"Usage: aucopt plot convergence", "Kinds:"}, nil},
		{"help unknown command", []string{"help", "nosuch"}, "", 2, nil, []string{`aucopt help: unknown command "nosuch"`}},
		{"help lists exit statuses", []string{"help"}, "", 0, []string{"Exit status", "130", "143"}, nil},
		{"backends lists all", []string{"backends"}, "", 0, []string{"cuda", "avx2", "generic", "CPU:", "selected:"}, nil},
		{"backends generic", []string{"backends", "--backend", "generic"}, "", 0, []string{"selected: generic (asked for generic)"}, nil},
		{"backends from env", []string{"backends"}, "generic", 0, []string{"selected: generic (asked for generic)"}, nil},
		{"flag beats env", []string{"backends", "--backend=generic"}, "bogus", 0, []string{"selected: generic"}, nil},
		{"unknown backend", []string{"backends", "--backend", "tpu"}, "", 2, nil, []string{`unknown backend "tpu"`, "auto, cuda, avx2, generic"}},
		{"unknown backend from env", []string{"backends"}, "tpu", 2, nil, []string{`unknown backend "tpu"`}},
		{"cuda says why", []string{"backends", "--backend", "cuda"}, "", 2, nil, []string{"aucopt backends: backend cuda: unavailable:"}},
		{"bad flag", []string{"backends", "--bogus"}, "", 2, nil, []string{"aucopt backends: unknown flag: --bogus (see aucopt backends --help)"}},
		{"stray argument", []string{"backends", "extra"}, "", 2, nil, []string{`unexpected argument "extra"`}},
		{"command help", []string{"backends", "--help"}, "", 0, []string{"Usage: aucopt backends", "Examples:", "--backend"}, nil},
		{"train help on stdout", []string{"train", "--help"}, "", 0, []string{"Usage: aucopt train", "--calibrate", "Examples:"}, nil},
		{"short help", []string{"eval", "-h"}, "", 0, []string{"Usage: aucopt eval"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("AUCOPT_BACKEND", tt.env)
			var out, errOut bytes.Buffer
			status := run(tt.args, &out, &errOut)
			if status != tt.wantStatus {
				t.Errorf("run(%q) = %d, want %d\nstdout:\n%s\nstderr:\n%s", tt.args, status, tt.wantStatus, out.String(), errOut.String())
			}
			for _, s := range tt.wantOut {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout of %q lacks %q:\n%s", tt.args, s, out.String())
				}
			}
			if tt.wantStatus != 0 && strings.Count(errOut.String(), "\n") != 1 {
				t.Errorf("stderr of %q is not one line:\n%s", tt.args, errOut.String())
			}
			if tt.wantStatus == 0 && tt.wantErr == nil && errOut.Len() != 0 {
				t.Errorf("stderr of %q is not empty:\n%s", tt.args, errOut.String())
			}
			for _, s := range tt.wantErr {
				if !strings.Contains(errOut.String(), s) {
					t.Errorf("stderr of %q lacks %q:\n%s", tt.args, s, errOut.String())
				}
			}
		})
	}
}

func TestBackendsJSON(t *testing.T) {
	t.Setenv("AUCOPT_BACKEND", "")
	var out, errOut bytes.Buffer
	if status := run([]string{"backends", "--json"}, &out, &errOut); status != 0 {
		t.Fatalf("backends --json exited %d: %s", status, errOut.String())
	}
	var report struct {
		Backends []struct {
			Name      string
			Available bool
		}
		Selected string
	}
	if err := json.Unmarshal(out.Bytes(), &report); err != nil {
		t.Fatalf("backends --json is not JSON: %v\n%s", err, out.String())
	}
	if len(report.Backends) != 3 || report.Backends[2].Name != "generic" || !report.Backends[2].Available {
		t.Errorf("backends = %+v, want cuda, avx2, generic with generic available", report.Backends)
	}
	if report.Selected == "" {
		t.Error("no backend selected")
	}
}

// runFailing runs `aucopt cmd args…`, which must fail: with exit status status (0: any
// non-zero status) and a first stderr line containing want, the only line unless it
// is a usage error (status 2). It returns stdout.
func runFailing(t *testing.T, cmd string, args []string, status int, want string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	got := run(append([]string{cmd}, args...), &stdout, &stderr)
	if got == 0 || status != 0 && got != status {
		t.Errorf("exit %d, want %d (0: non-zero)", got, status)
	}
	first, _, _ := strings.Cut(stderr.String(), "\n")
	if !strings.Contains(first, want) {
		t.Errorf("stderr %q, want a first line with %q", stderr.String(), want)
	}
	if status != 2 && strings.Count(stderr.String(), "\n") != 1 {
		t.Errorf("stderr is not one line: %q", stderr.String())
	}
	return stdout.String()
}

func TestBuildDetails(t *testing.T) {
	tests := []struct {
		name string
		info *debug.BuildInfo
		want string
	}{
		{"none", nil, "no build information"},
		{"no vcs", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "(devel)"}}, "go1.26.0, no VCS information"},
		{"module", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v0.2.0"}}, "go1.26.0, module v0.2.0, no VCS information"},
		{"clone", &debug.BuildInfo{GoVersion: "go1.26.0", Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "1f43576a6d2b0123456789abcdef0123456789ab"}, {Key: "vcs.time", Value: "2026-11-23T20:41:07Z"},
			{Key: "vcs.modified", Value: "true"}}}, "go1.26.0, commit 1f43576a6d2b, 2026-11-23T20:41:07Z, modified"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := buildDetails(tt.info); got != tt.want {
				t.Errorf("buildDetails = %q, want %q", got, tt.want)
			}
		})
	}
}
