package engine

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aucopt/aucopt/backends"
	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/fault"
	"github.com/aucopt/aucopt/engine/stats"
	"github.com/aucopt/aucopt/fallback"
)

// synthText renders n random sparse rows of up to dim features as LIBSVM text, labels
// from labels, with blank and comment lines mixed in.
func synthText(n, dim int, labels []string, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 17))
	var b bytes.Buffer
	for i := range n {
		if i%97 == 5 {
			b.WriteString("# a comment line\n\n")
		}
		fmt.Fprintf(&b, "%s", labels[r.IntN(len(labels))])
		top := 1 + r.IntN(dim)
		if i < 50 {
			top = min(top, 3) // the first chunks see few features: the dimension grows
		}
		for j := 1; j <= top; j++ {
			if r.Float64() < 0.6 {
				fmt.Fprintf(&b, " %d:%.6g", j, r.NormFloat64()+float64(j%3))
			}
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

func writeFile(t *testing.T, name string, text []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, text, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// encoded returns the bytes of the class moments, for bit-identity checks.
func encoded(t *testing.T, cm *stats.ClassMoments) []byte {
	t.Helper()
	b, err := cm.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestStreamClassMomentsBitIdenticalAcrossWorkers(t *testing.T) {
	path := writeFile(t, "train.svm", synthText(3000, 40, []string{"+1", "-1"}, 1))
	b, err := backends.Open("generic")
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	for _, chunk := range []int{700, 4096, 1 << 20} {
		var want []byte
		var wantChunks int
		for _, workers := range []int{1, 2, 3, 7} {
			cm, info, err := streamClassMoments(context.Background(), b, path, streamOptions{Workers: workers, ChunkBytes: chunk})
			if err != nil {
				t.Fatalf("chunk %d, %d workers: %v", chunk, workers, err)
			}
			if info.Rows != 3000 || cm.Dim() != 40 {
				t.Fatalf("chunk %d, %d workers: %d rows, dimension %d; want 3000, 40", chunk, workers, info.Rows, cm.Dim())
			}
			got := encoded(t, cm)
			if want == nil {
				want, wantChunks = got, info.Chunks
				continue
			}
			if !bytes.Equal(got, want) || info.Chunks != wantChunks {
				t.Errorf("chunk %d: %d workers give other moments (%d chunks) than 1 worker (%d chunks)", chunk, workers, info.Chunks, wantChunks)
			}
		}
		if chunk == 700 && wantChunks < 50 {
			t.Errorf("chunk 700: %d chunks, want many", wantChunks)
		}
	}
}

// relDiff is max|a−b| / max|a|.
func relDiff(a, b []float64) float64 {
	var d, s float64
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		s = math.Max(s, math.Abs(a[i]))
	}
	return d / s
}

func TestTrainOutOfCoreMatchesInMemory(t *testing.T) {
	text := synthText(4000, 30, []string{"1", "0"}, 2)
	path := writeFile(t, "train.svm", text)
	test := writeFile(t, "test.svm", synthText(1500, 30, []string{"1", "0"}, 3))
	for _, tc := range []struct {
		algo   string
		params []string
		scale  string
	}{
		{"ls-auc", nil, data.ScaleAuto},
		{"ls-auc", []string{"lambda=1e-2"}, data.ScaleNone},
		{"ls-auc", nil, data.ScaleMinMax},
		{"mba-l2", []string{"pairs=all"}, data.ScaleAuto},
		{"mba-el", []string{"pairs=all", "lambda1=1e-3"}, data.ScaleAuto},
	} {
		t.Run(tc.algo+"/"+strings.Join(tc.params, ",")+"/"+tc.scale, func(t *testing.T) {
			cfg := TrainConfig{Algo: tc.algo, Params: testParams(t, tc.algo, tc.params...), Data: path, Test: test, Scale: tc.scale, Seed: 1, Backend: fallback.New()}
			mem, err := Train(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.OutOfCore = true
			ooc, err := Train(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(mem.Weights) != len(ooc.Weights) || ooc.Features != mem.Features || ooc.TrainRows != mem.TrainRows || ooc.Scale != mem.Scale {
				t.Fatalf("out of core: %d weights, %d features, %d rows, scale %s; in memory %d, %d, %d, %s",
					len(ooc.Weights), ooc.Features, ooc.TrainRows, ooc.Scale, len(mem.Weights), mem.Features, mem.TrainRows, mem.Scale)
			}
			if d := relDiff(mem.Weights, ooc.Weights); d > 1e-9 {
				t.Errorf("weights differ by %.3g relative, want ≤ 1e-9", d)
			}
			if math.Abs(mem.TestAUC-ooc.TestAUC) > 1e-12 {
				t.Errorf("test AUC %v out of core, %v in memory", ooc.TestAUC, mem.TestAUC)
			}
			if ooc.TrainSHA256 == "" || ooc.TrainSHA256 != mem.TrainSHA256 {
				t.Errorf("fingerprint %q out of core, %q in memory", ooc.TrainSHA256, mem.TrainSHA256)
			}
		})
	}
}

// TestMBAAllPairsIsTheOracle checks the identity of docs/ALGORITHMS.md, "MBA": with every pair MBA-ℓ2's
// system is the ORACLE's, so mba-l2 pairs=all with λ₂ = λ gives ls-auc's weights.
func TestMBAAllPairsIsTheOracle(t *testing.T) {
	path := writeFile(t, "train.svm", synthText(2000, 20, []string{"+1", "-1"}, 4))
	ls, err := Train(context.Background(), TrainConfig{Algo: "ls-auc", Params: testParams(t, "ls-auc", "lambda=1e-3"), Data: path, Scale: data.ScaleNone, Backend: fallback.New()})
	if err != nil {
		t.Fatal(err)
	}
	mba, err := Train(context.Background(), TrainConfig{Algo: "mba-l2", Params: testParams(t, "mba-l2", "pairs=all", "lambda2=1e-3"), Data: path, Scale: data.ScaleNone, Backend: fallback.New()})
	if err != nil {
		t.Fatal(err)
	}
	if d := relDiff(ls.Weights, mba.Weights); d > 1e-12 {
		t.Errorf("mba-l2 pairs=all and ls-auc differ by %.3g relative", d)
	}
}

func TestStreamClassMomentsCompressedEqualsPlain(t *testing.T) {
	text := synthText(1500, 25, []string{"+1", "-1"}, 5)
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write(text)
	w.Close()
	b, _ := backends.Open("generic")
	defer b.Close()
	plain, pinfo, err := streamClassMoments(context.Background(), b, writeFile(t, "a.svm", text), streamOptions{ChunkBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	comp, cinfo, err := streamClassMoments(context.Background(), b, writeFile(t, "a.svm.gz", gz.Bytes()), streamOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if pinfo.Rows != cinfo.Rows || plain.Dim() != comp.Dim() {
		t.Fatalf("plain %d rows × %d, gzip %d × %d", pinfo.Rows, plain.Dim(), cinfo.Rows, comp.Dim())
	}
	// One chunk and one sequential stream add the same rows in the same blocks.
	if !bytes.Equal(encoded(t, plain), encoded(t, comp)) {
		t.Error("gzip and plain moments differ")
	}
}

func TestStreamClassMomentsBadInput(t *testing.T) {
	good := string(synthText(400, 10, []string{"+1", "-1"}, 6))
	lines := strings.Count(good, "\n")
	zeroOne := string(synthText(400, 10, []string{"1", "0"}, 7))
	long := "+1 " + strings.Repeat("1:1 ", 0) + "1:" + strings.Repeat("0", 3000) + "1\n"
	for _, tc := range []struct {
		name, text string
		line       int    // the line the error names; 0: no error
		is         error  // what the error wraps
		contains   string // a piece of its message
	}{
		{"malformed line late", good + "+1 3:x\n" + good, lines + 1, data.ErrValue, ""},
		{"bad index", good + good + "-1 0:1\n", 2*lines + 1, data.ErrIndex, ""},
		{"labels from two conventions", zeroOne + good, strings.Count(zeroOne, "\n") + firstLineWith(good, "-1"), data.ErrLabel, "does not make a binary problem"},
		{"third label", good + "+1 1:1\n2 1:1\n", lines + 2, data.ErrLabel, ""},
		{"empty file", "# only a comment\n\n", 0, errNoExamples, "no examples"},
		{"one class", strings.ReplaceAll(good, "-1", "+1"), 0, errOneClassSentinel, "0 negatives"},
		{"line longer than a chunk", long + good, 0, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "shard.svm", []byte(tc.text))
			// The single-machine reader is the reference for parse errors.
			// Numbered from 1, said: the whole-file reader would take an index 0 for a
			// file numbered from 0 (data.IndexAuto), which the chunks cannot.
			one := data.Options{Indices: data.IndexOne}
			_, refErr := data.ReadFile(path, one)
			b, _ := backends.Open("generic")
			defer b.Close()
			cm, _, err := streamClassMoments(context.Background(), b, path, streamOptions{Workers: 3, ChunkBytes: 512, Options: one})
			if tc.is == errNoExamples {
				if err == nil || refErr == nil || err.Error() != refErr.Error() {
					t.Errorf("error %v, the reader of the whole file %v", err, refErr)
				}
				return
			}
			if tc.line > 0 {
				var pe *data.ParseError
				if !errors.As(err, &pe) || pe.Line != tc.line || pe.Path != path || !errors.Is(err, tc.is) {
					t.Fatalf("error %v, want a %v at %s:%d", err, tc.is, path, tc.line)
				}
				var ref *data.ParseError
				if !errors.As(refErr, &ref) || ref.Line != pe.Line {
					t.Errorf("the reader of the whole file says %v, the chunks %v", refErr, err)
				}
				if !strings.Contains(err.Error(), tc.contains) {
					t.Errorf("error %q does not say %q", err, tc.contains)
				}
				return
			}
			if err != nil {
				t.Fatalf("streamClassMoments: %v", err)
			}
			if refErr != nil {
				t.Fatalf("the reader of the whole file fails: %v", refErr)
			}
			if tc.is == nil {
				return
			}
			_, err = Train(context.Background(), TrainConfig{Algo: "ls-auc", Data: path, Scale: data.ScaleNone, OutOfCore: true, Backend: fallback.New()})
			if err == nil || !strings.Contains(err.Error(), tc.contains) || cm == nil {
				t.Errorf("training: %v, want an error saying %q", err, tc.contains)
			}
		})
	}
}

// errNoExamples marks a file without rows, which both readers reject.
var errNoExamples = errors.New("no examples")

// errOneClassSentinel marks the cases that fail at training, not at reading.
var errOneClassSentinel = errors.New("one class")

// firstLineWith is the 1-based line of text's first line starting with prefix.
func firstLineWith(text, prefix string) int {
	for i, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix) {
			return i + 1
		}
	}
	return 0
}

func TestTrainOutOfCoreSettingsThatCannotApply(t *testing.T) {
	path := writeFile(t, "train.svm", synthText(200, 5, []string{"+1", "-1"}, 8))
	for _, tc := range []struct {
		name string
		cfg  TrainConfig
		want string
	}{
		{"online algorithm", TrainConfig{Algo: "spam-l2", Data: path}, "online algorithm"},
		{"sampled pairs", TrainConfig{Algo: "mba-l2", Data: path}, "pairs=all"},
		{"row scaling", TrainConfig{Algo: "ls-auc", Data: path, Scale: data.ScaleNorm}, "Scale norm"},
		{"shuffle", TrainConfig{Algo: "ls-auc", Data: path, Shuffle: true}, "Shuffle does not apply"},
		{"dataset name", TrainConfig{Algo: "ls-auc", Data: "a9a"}, "not one"},
		{"checkpoint", TrainConfig{Algo: "ls-auc", Data: path, Checkpoint: path + ".ckpt"}, "Checkpoint is for online ones"},
		{"table options on LIBSVM text", TrainConfig{Algo: "ls-auc", Data: path, Table: &data.TableOptions{Label: "y"}}, "not a table"},
		{"B with all pairs", TrainConfig{Algo: "mba-l2", Data: path, Params: testParams(t, "mba-l2", "pairs=all", "B=10")}, "pairs=all"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.OutOfCore, tc.cfg.Backend = true, fallback.New()
			_, err := Train(context.Background(), tc.cfg)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one saying %q", err, tc.want)
			}
		})
	}
}

// TestTrainOutOfCoreMemoryGuard: a row whose feature index makes the class moments
// too large for the memory limit is refused before the accumulators grow to it (the
// error names its line), plain (chunks on workers) and compressed (one reader); the
// guard sees each new largest dimension once, in increasing order per goroutine.
func TestTrainOutOfCoreMemoryGuard(t *testing.T) {
	// 300 rows of 5 features, then one of feature 2,000,000 at line 301: its moments
	// would take terabytes.
	var text bytes.Buffer
	for i := range 300 {
		fmt.Fprintf(&text, "%s 1:%d 5:1\n", []string{"+1", "-1"}[i%2], i)
	}
	text.WriteString("+1 3:1 2000000:1\n-1 1:1\n")
	plain := writeFile(t, "wide.svm", text.Bytes())
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(text.Bytes())
	zw.Close()
	packed := writeFile(t, "wide.svm.gz", gz.Bytes())
	for _, path := range []string{plain, packed} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			cfg := TrainConfig{Algo: "ls-auc", Data: path, OutOfCore: true, MaxMemory: 1 << 30, Seed: 1, Backend: fallback.New()}
			_, err := Train(context.Background(), cfg)
			if !errors.Is(err, ErrMemory) || !errors.Is(err, fault.ErrInput) || !strings.HasPrefix(err.Error(), path+":301: ") ||
				!strings.Contains(err.Error(), "2,000,000 features out of core") {
				t.Fatalf("error %v; want ErrMemory naming %s:301 and 2,000,000 features", err, path)
			}
			var dims []int
			refuse := errors.New("refused")
			_, _, err = streamClassMoments(context.Background(), fallback.New(), path, streamOptions{Workers: 1, ChunkBytes: 1 << 10,
				Guard: func(dim int, bytes float64) error {
					dims = append(dims, dim)
					if bytes < accumulatorBytes(dim) {
						t.Errorf("guard of %d features: %g bytes, less than one accumulator's %g", dim, bytes, accumulatorBytes(dim))
					}
					if dim > 1000 {
						return refuse
					}
					return nil
				}})
			if !errors.Is(err, refuse) || !strings.HasPrefix(err.Error(), path+":301: ") || !slicesEqual(dims, []int{5, 2_000_000}) {
				t.Errorf("a guard refusing above 1,000 features: error %v, guard called with %v; want its error at line 301 and [5 2000000]", err, dims)
			}
		})
	}
}

// TestTrainOutOfCoreTables: --out-of-core reads CSV and TSV tables (plain and
// compressed) with --label, --positive, --categorical and --hash-bits, and LIBSVM text
// with --positive, to the in-memory model's weights within 1e-12 relative, its schema
// and fingerprint; a CSV of several megabytes is read in one piece, no row taken for a
// header. (Tables and --positive were refused out of core; a CSV over one chunk read
// its first row as a header.)
func TestTrainOutOfCoreTables(t *testing.T) {
	var csv, tsv strings.Builder
	csv.WriteString("x1,y,x2,kind,x3\n")
	tsv.WriteString("x1\ty\tx2\tkind\tx3\n")
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 120_000 {
		a, b, c := r.NormFloat64(), r.NormFloat64(), r.NormFloat64()
		y := "no"
		if a+0.5*b-c+r.NormFloat64() > 0 {
			y = "yes"
		}
		kind := []string{"red", "green", "blue"}[i%3]
		fmt.Fprintf(&csv, "%.6f,%d,%.6f,%s,%.6f\n", a, map[string]int{"no": 0, "yes": 1}[y], b, kind, c)
		fmt.Fprintf(&tsv, "%.6f\t%s\t%.6f\t%s\t%.6f\n", a, y, b, kind, c)
	}
	var gz bytes.Buffer
	z := gzip.NewWriter(&gz)
	z.Write([]byte(tsv.String()))
	z.Close()
	csvPath := writeFile(t, "big.csv", []byte(csv.String()))
	tsvPath := writeFile(t, "big.tsv.gz", gz.Bytes())
	svmPath := writeFile(t, "train.svm", synthText(3000, 12, []string{"1", "0"}, 9))
	// A hashed one-hot column sums to ±1 in every row: the pairwise differences of
	// ls-auc cancel that direction, which only the ridge term holds, so the system is
	// conditioned as 1/λ and the two summation orders differ by more than for numbers.
	for _, tc := range []struct {
		name string
		cfg  TrainConfig
		tol  float64
	}{
		{"csv", TrainConfig{Data: csvPath, Table: &data.TableOptions{Label: "y", Ignore: []string{"kind"}}}, 1e-12},
		{"csv categorical", TrainConfig{Data: csvPath, Table: &data.TableOptions{Label: "y", Categorical: []string{"kind"}, HashBits: 3}}, 1e-10},
		{"tsv.gz positive", TrainConfig{Data: tsvPath, Positive: "yes", Table: &data.TableOptions{Label: "y", HashBits: 2}}, 1e-10},
		{"libsvm positive", TrainConfig{Data: svmPath, Positive: "0"}, 1e-12},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.cfg
			cfg.Algo, cfg.Seed, cfg.Backend = "ls-auc", 1, fallback.New()
			mem, err := Train(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			cfg.OutOfCore = true
			ooc, err := Train(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if ooc.TrainRows != mem.TrainRows || ooc.Features != mem.Features || ooc.Scale != mem.Scale || ooc.TrainSHA256 != mem.TrainSHA256 {
				t.Fatalf("out of core: %d rows, %d features, scale %s, sha %s; in memory %d, %d, %s, %s",
					ooc.TrainRows, ooc.Features, ooc.Scale, ooc.TrainSHA256, mem.TrainRows, mem.Features, mem.Scale, mem.TrainSHA256)
			}
			if d := relDiff(mem.Weights, ooc.Weights); d > tc.tol {
				t.Errorf("weights differ by %.3g relative, want ≤ %g", d, tc.tol)
			}
			if a, b := fmt.Sprint(ooc.Schema), fmt.Sprint(mem.Schema); a != b {
				t.Errorf("schema %s out of core, %s in memory", a, b)
			}
		})
	}
}

func slicesEqual(a, b []int) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
