package main

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/engine/solver"
	flag "github.com/spf13/pflag"
)

// flagHelp returns the help line of each flag in a command's --help output.
func flagHelp(t *testing.T, args ...string) map[string]string {
	t.Helper()
	var out, errOut bytes.Buffer
	if status := run(append(args, "--help"), &out, &errOut); status != 0 {
		t.Fatalf("%v --help: exit %d: %s", args, status, errOut.String())
	}
	re := regexp.MustCompile(`^\s+(?:-\w, )?--([\w-]+)(?: \w+)?\s+(.*)$`)
	lines := map[string]string{}
	for _, l := range strings.Split(out.String(), "\n") {
		if m := re.FindStringSubmatch(l); m != nil {
			lines[m[1]] = m[2]
		}
	}
	return lines
}

// TestTrainFlagsOneHelp: the training flags read the same in every command that
// takes them (one declaration, one help text).
func TestTrainFlagsOneHelp(t *testing.T) {
	commands := [][]string{{"train"}, {"cv"}, {"plot", "convergence"}, {"experiment"}}
	tests := []struct {
		flag string
		in   int // the first len(commands[:in]) commands take it
	}{
		{"passes", 4}, {"seed", 4}, {"backend", 4}, {"max-memory", 4},
		{"param", 3}, {"shuffle", 3}, {"scale", 3}, {"positive", 3}, {"zero-based", 3},
		{"bins", 2}, {"algo", 2},
	}
	helps := make([]map[string]string, len(commands))
	for i, c := range commands {
		helps[i] = flagHelp(t, c...)
	}
	for _, tt := range tests {
		want, ok := helps[0][tt.flag]
		if !ok {
			t.Errorf("train has no --%s", tt.flag)
			continue
		}
		for i, c := range commands[1:tt.in] {
			if got := helps[i+1][tt.flag]; got != want {
				t.Errorf("%s --%s:\n  %q\ntrain --%s:\n  %q", strings.Join(c, " "), tt.flag, got, tt.flag, want)
			}
		}
	}
}

// TestTrainFlagsHelpFromSpecs: --passes names every online algorithm that makes more
// passes on small sets with its MinSteps, --scale every one that assumes unit rows,
// --algo every algorithm: the help is made from the registry, not written by hand.
func TestTrainFlagsHelpFromSpecs(t *testing.T) {
	help := flagHelp(t, "train")
	for _, s := range solver.Registry() {
		if !strings.Contains(help["algo"], s.Name) {
			t.Errorf("--algo's help does not name %s", s.Name)
		}
		group := "⌈" + groupDigits(s.MinSteps) + "/rows⌉"
		i := strings.Index(help["passes"], group)
		named := i >= 0 && strings.Contains(strings.SplitN(help["passes"][i:], "⌉", 3)[1], " "+s.Name)
		if want := !s.IsBatch() && s.MinSteps > 0; named != want {
			t.Errorf("--passes names %s under %s: %v, want %v (MinSteps %d)", s.Name, group, named, want, s.MinSteps)
		}
		if got := strings.Contains(help["scale"], " "+s.Name+" ") || strings.Contains(help["scale"], " "+s.Name+","); got != s.UnitRows {
			t.Errorf("--scale names %s: %v, want %v (UnitRows)", s.Name, got, s.UnitRows)
		}
	}
}

// TestTrainFlagsConfig: the training flags become the library's configuration in
// config: -p's key=values typed once on the algorithm's parameters (the keys set
// recorded), the shared values as given; a bad value is refused there.
func TestTrainFlagsConfig(t *testing.T) {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	tf := addTrainFlags(fs, withLearner|withBins)
	if err := fs.Parse([]string{"-p", "eta=2^-4", "--passes", "3", "--seed", "9", "--scale", "none", "--shuffle=false", "--bins", "4", "--max-memory", "1MiB"}); err != nil {
		t.Fatal(err)
	}
	if err := tf.check(); err != nil {
		t.Fatal(err)
	}
	cfg, err := tf.config("opauc", nil)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Algo != "opauc" || cfg.Passes != 3 || cfg.Seed != 9 || cfg.Scale != "none" || cfg.Shuffle || cfg.Bins != 4 || cfg.MaxMemory != 1<<20 {
		t.Errorf("config %+v", cfg)
	}
	if got := cfg.Params.SetKeys(); len(got) != 1 || got[0] != "eta" || cfg.Params.Values()["eta"] != 0.0625 {
		t.Errorf("params %v set %v, want eta=0.0625 set alone", cfg.Params, got)
	}
	if _, err := tf.config("ls-auc", nil); err == nil || !strings.Contains(err.Error(), `ls-auc: bad parameter: unknown key "eta"`) {
		t.Errorf("eta for ls-auc: err %v", err)
	}
	if cfg, err := tf.config("auto", nil); err != nil || !cfg.Params.IsZero() {
		t.Errorf("auto: params %v, err %v; want none (auto refuses -p)", cfg.Params, err)
	}
}
