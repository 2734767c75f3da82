package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	_ "github.com/aucopt/aucopt/backends/all" // the default selection, as the commands have it
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/solver"
	"github.com/aucopt/aucopt/fallback"
)

func TestProtocols(t *testing.T) {
	tests := []struct {
		name           string
		split          SplitKind
		trials, folds  int
		runs           int
		inner          int
		scale          string
		reference      string
		batchMax       int
		wantMergeSplce bool
	}{
		{"opauc", SplitCV, 5, 5, 0, 5, ScaleAuto, "opauc", 8000, true},
		{"ubauc", SplitSubsample, 0, 0, 25, 0, ScaleAuto, "ubauc-batch", 0, false},
		{"mba", SplitGiven, 0, 0, 10, 0, ScaleAuto, "mba-l2", 0, false},
		{"thesis", SplitCV, 5, 5, 0, 5, ScaleThesis, "solam", 0, true},
		{"mba-sim", SplitSimulation, 0, 0, 50, 0, ScaleNone, "mba-l2", 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Lookup(tt.name)
			if err != nil {
				t.Fatal(err)
			}
			if p.Split != tt.split || p.Trials != tt.trials || p.Folds != tt.folds || p.Runs != tt.runs || p.InnerFolds != tt.inner {
				t.Errorf("split %s trials %d folds %d runs %d inner %d, want %s %d %d %d %d",
					p.Split, p.Trials, p.Folds, p.Runs, p.InnerFolds, tt.split, tt.trials, tt.folds, tt.runs, tt.inner)
			}
			if p.Scale != tt.scale || p.BatchMaxRows != tt.batchMax || p.merged("splice") != tt.wantMergeSplce {
				t.Errorf("scale %s, batch rows %d, splice merged %v; want %s, %d, %v", p.Scale, p.BatchMaxRows, p.merged("splice"), tt.scale, tt.batchMax, tt.wantMergeSplce)
			}
			if p.Groups[0].Reference != tt.reference {
				t.Errorf("reference %s, want %s", p.Groups[0].Reference, tt.reference)
			}
			for _, g := range p.Groups {
				if !slices.Contains(g.Algos, g.Reference) {
					t.Errorf("%s: reference %s is not among the algorithms %v", g.Title, g.Reference, g.Algos)
				}
				for _, a := range g.Algos {
					if _, err := solver.Lookup(a); err != nil && !(a == "np" && p.Split == SplitSimulation) {
						t.Errorf("%s: %v", g.Title, err)
					}
				}
				if p.Split == SplitSimulation {
					continue
				}
				for _, d := range g.Datasets {
					if _, err := data.Lookup(d); err != nil {
						t.Errorf("%s: %v", g.Title, err)
					}
				}
			}
			for a, g := range p.Grids {
				spec, err := solver.Lookup(a)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := gridParams(spec, g); err != nil {
					t.Errorf("grid %s for %s: %v", g, a, err)
				}
			}
		})
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("Lookup(nope) succeeded")
	}
}

// TestEveryAlgorithmInATable: the acceptance rule that every algorithm of the papers
// (every registered one) appears in at least one protocol's table.
func TestEveryAlgorithmInATable(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Protocols() {
		for _, g := range p.Groups {
			for _, a := range g.Algos {
				seen[a] = true
			}
		}
	}
	for _, a := range solver.Names() {
		if !seen[a] {
			t.Errorf("%s is in no protocol's table", a)
		}
	}
}

func TestPublished(t *testing.T) {
	tests := []struct {
		protocol, dataset, algo string
		mean, std               float64
	}{
		{"opauc", "a9a", "opauc", .9002, .0047},
		{"opauc", "german", "opauc", .7978, .0347},
		{"opauc", "sector", "opaucr", .9292, .0081},
		{"mba", "a9a", "mba-l2", .8997, .0001},
		{"mba", "svmguide3", "mba-l2", .8116, .0080},
		{"mba-sim", SimName(1, 1), "np", .9213, 0},
		{"thesis", "a9a", "spam-l2", .8995, .0041},
		{"ubauc", "a9a", "ubauc-batch", .9009, .0041},
	}
	for _, tt := range tests {
		c, ok := Published(tt.protocol, tt.dataset, tt.algo)
		if !ok || math.Abs(c.Mean-tt.mean) > 1e-12 || math.Abs(c.Std-tt.std) > 1e-12 {
			t.Errorf("Published(%s, %s, %s) = %+v, %v; want %v ± %v", tt.protocol, tt.dataset, tt.algo, c, ok, tt.mean, tt.std)
		}
	}
	if _, ok := Published("ubauc", "sector", "ubauc-batch"); ok {
		t.Error("ubauc sector ubauc-batch is '-' in the paper, but has a number")
	}
}

// table returns a one-dataset table whose runs have the given AUCs.
func table(ref string, aucs map[string][]float64) *Table {
	t := &Table{Title: "t", Reference: ref, Datasets: []string{"d"}, Cells: map[string]map[string]*Cell{"d": {}}}
	for _, a := range []string{"ref", "better", "worse", "same", "short"} {
		xs, ok := aucs[a]
		if !ok {
			continue
		}
		t.Algos = append(t.Algos, a)
		c := &Cell{}
		for _, x := range xs {
			r := Run{AUC: x}
			if math.IsNaN(x) {
				r.Error = "diverged"
			}
			c.Runs = append(c.Runs, r)
		}
		t.Cells["d"][a] = c
	}
	return t
}

func TestMarks(t *testing.T) {
	nan := math.NaN()
	tab := table("ref", map[string][]float64{
		"ref":    {.80, .82, .81, .83, .80},
		"better": {.85, .86, .86, .87, .85}, // the reference is worse: ○
		"worse":  {.70, .73, .70, .72, .71}, // the reference is better: •
		"same":   {.81, .81, .82, .82, .80}, // no significant difference
		"short":  {.90, nan, nan, nan, nan}, // one paired run: no test
	})
	tab.summarise()
	want := map[string]string{"better": "○", "worse": "•", "same": "", "short": ""}
	for a, m := range want {
		if got := tab.Cells["d"][a].Mark; got != m {
			t.Errorf("%s: mark %q, want %q", a, got, m)
		}
	}
	if got := tab.WinTieLoss; got["worse"] != [3]int{1, 0, 0} || got["better"] != [3]int{0, 0, 1} || got["same"] != [3]int{0, 1, 0} {
		t.Errorf("win/tie/loss %v", got)
	}
	c := tab.Cells["d"]["short"]
	if c.N != 1 || c.Mean != .90 || !strings.Contains(c.Note, "4 of 5 runs failed") {
		t.Errorf("short: n %d mean %v note %q", c.N, c.Mean, c.Note)
	}
	if m, s := tab.Cells["d"]["ref"].Mean, tab.Cells["d"]["ref"].Std; math.Abs(m-.812) > 1e-12 || math.Abs(s-0.013038404810405) > 1e-12 {
		t.Errorf("ref: %v ± %v, want .812 ± .0130", m, s)
	}
}

// tiny is a small opauc-protocol experiment on the embedded german set.
func tiny(seed uint64) Config {
	p, _ := Lookup("opauc")
	return Config{Protocol: p, Datasets: []string{"german"}, Algos: []string{"opauc", "ls-auc"}, Trials: 1, Folds: 3, InnerFolds: 2,
		Grids: map[string]string{"opauc": "eta=2^[-8..-6];lambda=0.015625", "ls-auc": "lambda=0.001,0.1"}, Seed: seed, Backend: fallback.New()}
}

func TestTinyExperiment(t *testing.T) {
	rep, err := Experiment(context.Background(), tiny(1))
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Tables) != 1 {
		t.Fatalf("%d tables, want 1", len(rep.Tables))
	}
	tab := rep.Tables[0]
	for _, a := range []string{"opauc", "ls-auc"} {
		c := tab.Cells["german"][a]
		if c.N != 3 || len(c.Runs) != 3 {
			t.Fatalf("%s: n %d of %d runs (%s), want 3", a, c.N, len(c.Runs), c.Note)
		}
		// german is easy to rank linearly: the paper's .79-.80 within a few stds.
		if c.Mean < .72 || c.Mean > .86 {
			t.Errorf("%s on german: AUC %.4f, want about .79", a, c.Mean)
		}
		if c.Paper == nil {
			t.Errorf("%s: no published number", a)
		}
		for _, r := range c.Runs {
			if r.Params == nil || r.ValAUC == nil || r.TrainRows < 600 {
				t.Errorf("%s %s: params %v val %v rows %d", a, r.Split, r.Params, r.ValAUC, r.TrainRows)
			}
		}
	}
	var md bytes.Buffer
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	s := md.String()
	for _, want := range []string{"| dataset | **opauc** | ls-auc |", "| win/tie/loss | — | ", "[.7978 ± .0347]", "[.7994 ± .0343]", "Reduced protocol", "1 trials instead of the paper's 5"} {
		if !strings.Contains(s, want) {
			t.Errorf("markdown lacks %q:\n%s", want, s)
		}
	}
	if !regexp.MustCompile(`\| german \| \.\d{4} ± \.\d{4}`).MatchString(s) {
		t.Errorf("markdown lacks the german row:\n%s", s)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Protocol string
		Tables   []struct {
			Cells map[string]map[string]struct {
				Mean *float64
				Runs []struct {
					AUC    *float64
					Params map[string]any
				}
			}
		}
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	again, err := ReadReport(bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var md2 bytes.Buffer
	if err := again.WriteMarkdown(&md2); err != nil {
		t.Fatal(err)
	}
	if md2.String() != s {
		t.Errorf("ReadReport's Markdown differs from the original:\n%s\n---\n%s", md2.String(), s)
	}
	c := back.Tables[0].Cells["german"]["opauc"]
	if back.Protocol != "opauc" || c.Mean == nil || len(c.Runs) != 3 || c.Runs[0].AUC == nil || c.Runs[0].Params["eta"] == nil {
		t.Errorf("JSON round trip lost the runs: %s", js.String())
	}
}

// stripTimes removes the timing fields from a report's JSON.
var timeFields = regexp.MustCompile(`"seconds": [0-9.e+-]+`)

func TestDeterministic(t *testing.T) {
	var out [2]string
	for i := range out {
		cfg := tiny(7)
		cfg.Workers = 1 + i // the order jobs finish in must not matter
		rep, err := Experiment(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		rep.Workers = 0
		var b bytes.Buffer
		if err := rep.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		out[i] = timeFields.ReplaceAllString(b.String(), `"seconds": 0`)
	}
	if out[0] != out[1] {
		t.Errorf("same seed, different JSON:\n%s\n---\n%s", out[0], out[1])
	}
}

func TestSimulationTiny(t *testing.T) {
	if testing.Short() {
		t.Skip("simulation: a few seconds")
	}
	p, _ := Lookup("mba-sim")
	cfg := Config{Protocol: p, Datasets: []string{SimName(1, 0.10)}, Algos: []string{"np", "mba-l2"}, Runs: 3, Seed: 1, Backend: fallback.New(),
		Grids: map[string]string{"mba-l2": "lambda2=0.001"}}
	rep, err := Experiment(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	row := rep.Tables[0].Cells[SimName(1, 0.10)]
	np, mba := row["np"], row["mba-l2"]
	// k = 1: the NP AUC is Φ(√2) ≈ .9214 up to the test sample's noise; a linear
	// learner on 2,000 points gets within a few points of it, not above it.
	if math.Abs(np.Mean-.9214) > .003 || np.Std != 0 {
		t.Errorf("np AUC %v ± %v, want .9214 ± 0", np.Mean, np.Std)
	}
	if mba.N != 3 || mba.Mean > np.Mean || mba.Mean < np.Mean-.04 {
		t.Errorf("mba-l2 AUC %v (n %d), want just below NP's %v", mba.Mean, mba.N, np.Mean)
	}
	if mba.Mark != "" && mba.Mark != "○" {
		t.Errorf("mba-l2 is the reference against np: mark %q", mba.Mark)
	}
}

func TestCannotRun(t *testing.T) {
	p, _ := Lookup("opauc")
	tab, err := layout(p, Config{Datasets: []string{"german"}, Algos: []string{"opauc"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(tab) != 1 || tab[0].Datasets[0] != "german" {
		t.Fatalf("layout: %+v", tab)
	}
	for _, tc := range []struct {
		algo string
		dim  int
		want string // "" for runs
	}{
		{"opauc", 55197, "not run: opauc keeps 48.8 GB of state at d = 55197"}, // two d×d covariances
		{"ls-auc", 55197, ""}, // above solver.LSAUCDirectMax: conjugate gradients, O(n + d)
		{"mba-l2", 55197, "not run: mba-l2 keeps"},
		{"spdam", 55197, ""}, // its state is O(n + d) on the host
		{"opaucr", 55197, ""},
		{"solam", 55197, ""},
		{"opauc", 5000, ""},
		{"ls-auc", 5000, ""},
		{"ls-auc", 6000, "not run: ls-auc keeps 1.2 GB"},
		{"opauc", 123, ""},
	} {
		spec, err := solver.Lookup(tc.algo)
		if err != nil {
			t.Fatal(err)
		}
		why := cannotRun(spec, tc.dim)
		if tc.want == "" && why != "" || tc.want != "" && !strings.HasPrefix(why, tc.want) {
			t.Errorf("cannotRun(%s, %d) = %q, want %q", tc.algo, tc.dim, why, tc.want)
		}
	}
	if _, err := layout(p, Config{Datasets: []string{"nope"}}); err == nil {
		t.Error("layout with an unknown dataset succeeded")
	}
}

// TestPasses: Config.Passes changes what the online learner (opauc) learns and leaves
// the batch one (ls-auc) as it was, is recorded as a departure from the protocol, and
// is refused by a run without an online learner.
func TestPasses(t *testing.T) {
	one, err := Experiment(context.Background(), tiny(1))
	if err != nil {
		t.Fatal(err)
	}
	cfg := tiny(1)
	cfg.Passes = 3
	three, err := Experiment(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	a, b := one.Tables[0].Cells["german"], three.Tables[0].Cells["german"]
	if a["ls-auc"].Mean != b["ls-auc"].Mean {
		t.Errorf("ls-auc (batch) %v with 3 passes, %v with one: want equal", b["ls-auc"].Mean, a["ls-auc"].Mean)
	}
	if a["opauc"].Mean == b["opauc"].Mean {
		t.Errorf("opauc (online) %v with 3 passes and with one: want a change", a["opauc"].Mean)
	}
	if !slices.Contains(three.Reduced, "online learners make 3 passes instead of one") || slices.ContainsFunc(one.Reduced, func(s string) bool { return strings.Contains(s, "passes") }) {
		t.Errorf("reduced: %q with 3 passes, %q with one", three.Reduced, one.Reduced)
	}
	cfg.Algos = []string{"ls-auc"}
	if _, err := Experiment(context.Background(), cfg); !errors.Is(err, solver.ErrParam) {
		t.Errorf("3 passes and only a batch learner: error %v, want solver.ErrParam", err)
	}
}
