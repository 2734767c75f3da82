package main_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/model"
)

// TestJobServer runs aucopt-beam's train and eval jobs the way a cluster runs them:
// against a job server started as its own process (prism's, built from the Beam SDK's
// cmd/prism) through Beam's portable job API (--runner=universal --endpoint=HOST:PORT),
// the path a Flink, Spark or Dataflow job server takes, and checks that they give the
// in-process run's model and AUC, for LIBSVM shards and CSV shards read with the table
// flags.
//
// The SDK workers run in two ways, both in separate processes from the job server:
//
//   - PROCESS, the main case: the job server starts each SDK worker as a process of its
//     own, through the Go SDK's boot program (sdks/go/container, what the Go SDK's
//     Docker image runs on Flink, Spark and Dataflow): boot asks the job server for the
//     pipeline's options and staged artifacts, fetches the worker binary the launcher
//     staged (aucopt-beam itself, which the launcher names as its worker binary) and
//     runs it with --worker=true. So the pipeline's functions, coders and options cross
//     process boundaries as serialised protos, and aucopt-beam's main is run as a
//     worker, as on a cluster. (Prism 2.77 passes the worker id as --id='ID' with the
//     quotes in the argument, which boot then sends back verbatim and the job server
//     does not know; a two-line shell wrapper takes them off. Boot copies the worker
//     binary into /tmp/binNNN/, a path it does not take from $TMPDIR and never removes;
//     the test removes the directories it names in the job server's log.)
//   - LOOPBACK: the launcher serves the workers itself (in its own process) and the job
//     server connects back to it: what a user does with a local job server, checked
//     because the README suggests it.
//
// Weights: the class moments are combined by the runner in the order it chooses, and
// floating-point addition is not associative, so another runner may round the last
// bits differently; the test asks 1e-12 relative (it logs whether they were
// bit-identical). The AUC is computed from integer counts, so it must be the same
// float64.
func TestJobServer(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a job server and aucopt-beam and runs pipelines through it; skipped with -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("the PROCESS environment's wrapper is a shell script")
	}
	goBin := goCommand(t)
	dir := t.TempDir()
	bin := filepath.Join(dir, "aucopt-beam")
	if out, err := exec.Command(goBin, "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build aucopt-beam: %v\n%s", err, out)
	}
	// The job server and the SDK's worker boot program come from the Beam module in
	// the module cache (offline); without them there is nothing to test against.
	prism, boot := filepath.Join(dir, "prism"), filepath.Join(dir, "boot")
	for pkg, out := range map[string]string{
		"github.com/apache/beam/sdks/v2/go/cmd/prism": prism,
		"github.com/apache/beam/sdks/v2/go/container": boot,
	} {
		if b, err := exec.Command(goBin, "build", "-o", out, pkg).CombinedOutput(); err != nil {
			t.Skipf("cannot build the job server's %s (%v): %s", pkg, err, b)
		}
	}
	persist := filepath.Join(dir, "persist") // boot's staging directory (default /tmp)
	shim := filepath.Join(dir, "boot.sh")
	script := `#!/bin/sh
# prism passes --id='ID' with the quotes in the argument: take them off.
n=$#
while [ "$n" -gt 0 ]; do
	a=$1; shift; n=$((n-1))
	case $a in --id=\'*\') a=${a#--id=\'}; a="--id=${a%\'}" ;; esac
	set -- "$@" "$a"
done
exec ` + strconv.Quote(boot) + ` --semi_persist_dir=` + strconv.Quote(persist) + ` "$@"
`
	if err := os.WriteFile(shim, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}

	work := t.TempDir()
	t.Setenv(data.EnvData, t.TempDir()) // the embedded a9a
	sp, err := data.Load("a9a", data.LoadOptions{Layout: data.LayoutSparse})
	if err != nil {
		t.Fatal(err)
	}
	writeShards(t, sp.Train, filepath.Join(work, "train"), 3)
	writeShards(t, sp.Test, filepath.Join(work, "test"), 2)
	// A click table in CSV shards, read with the table flags (hashed categories).
	var ctr bytes.Buffer
	if err := (&data.CTR{Rows: 2000, Seed: 5}).WriteContext(context.Background(), &ctr, data.FormatCSV, 0); err != nil {
		t.Fatal(err)
	}
	whole := filepath.Join(work, "ctr.csv")
	if err := os.WriteFile(whole, ctr.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(work, "ctr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := data.ConvertShards(whole, filepath.Join(work, "ctr", "part.csv"), 3, data.Options{}); err != nil {
		t.Fatal(err)
	}
	tableFlags := []string{"--data", "ctr/part-*.csv", "--label", "click", "--hash-bits", "6", "--ignore", "device_id,device_ip"}

	endpoint := startJobServer(t, prism, dir)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute) // a job server can wait forever on a worker that died
	defer cancel()
	// run runs aucopt-beam and returns its standard output; a successful run writes
	// nothing on stderr (Beam's and the job server's logs are at warn by default).
	run := func(t *testing.T, args ...string) string {
		t.Helper()
		c := exec.CommandContext(ctx, bin, args...)
		c.Dir = work
		var out, errOut bytes.Buffer
		c.Stdout, c.Stderr = &out, &errOut
		if err := c.Run(); err != nil {
			t.Fatalf("aucopt-beam %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
		}
		if errOut.Len() > 0 {
			t.Errorf("aucopt-beam %s wrote on stderr:\n%s", strings.Join(args, " "), errOut.String())
		}
		return out.String()
	}
	evalAUC := func(t *testing.T, runner []string, modelPath string) float64 {
		t.Helper()
		var res struct {
			AUC  float64 `json:"auc"`
			Rows int64   `json:"rows"`
		}
		out := run(t, append(runner, "--job", "eval", "--model", modelPath, "--data", "test/part-*.svm", "--json")...)
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("eval --json: %v\n%s", err, out)
		}
		if res.Rows != int64(sp.Test.Rows()) {
			t.Errorf("eval read %d rows, want %d", res.Rows, sp.Test.Rows())
		}
		return res.AUC
	}

	run(t, "--job", "train", "--data", "train/part-*.svm", "--model", "local.json")
	local, err := model.Read(filepath.Join(work, "local.json"))
	if err != nil {
		t.Fatal(err)
	}
	localAUC := evalAUC(t, nil, "local.json")
	run(t, append([]string{"--job", "train", "--model", "local-ctr.json"}, tableFlags...)...)
	localCTR, err := model.Read(filepath.Join(work, "local-ctr.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, env := range []struct {
		name string
		args []string
	}{
		{"PROCESS", []string{"--environment_type=PROCESS", `--environment_config={"command":` + strconv.Quote(shim) + `}`}},
		{"LOOPBACK", []string{"--environment_type=LOOPBACK"}},
	} {
		t.Run(env.name, func(t *testing.T) {
			runner := append([]string{"--runner=universal", "--endpoint=" + endpoint}, env.args...)
			name := "remote-" + env.name + ".json"
			run(t, append(runner, "--job", "train", "--data", "train/part-*.svm", "--model", name)...)
			m, err := model.Read(filepath.Join(work, name))
			if err != nil {
				t.Fatal(err)
			}
			if m.Features != local.Features || len(m.Weights) != len(local.Weights) {
				t.Fatalf("%d features, %d weights; in process %d, %d", m.Features, len(m.Weights), local.Features, len(local.Weights))
			}
			compareWeights(t, env.name+", LIBSVM shards", m.Weights, local.Weights)
			// The same model scored through the job server: the same AUC, exactly;
			// the job server's own model: the in-process one's, to its last digits.
			if got := evalAUC(t, runner, "local.json"); got != localAUC {
				t.Errorf("eval through the job server: AUC %v, in process %v", got, localAUC)
			}
			if got := evalAUC(t, runner, name); math.Abs(got-localAUC) > 1e-9 {
				t.Errorf("AUC of the job server's model %v, of the in-process model %v", got, localAUC)
			}
			// Table shards: the same model, its schema included.
			name = "remote-ctr-" + env.name + ".json"
			run(t, append(append(runner, "--job", "train", "--model", name), tableFlags...)...)
			m, err = model.Read(filepath.Join(work, name))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(m.Table, localCTR.Table) || len(m.Weights) != len(localCTR.Weights) {
				t.Fatalf("table model: schema %+v, %d weights; in process %+v, %d", m.Table, len(m.Weights), localCTR.Table, len(localCTR.Weights))
			}
			compareWeights(t, env.name+", CSV shards", m.Weights, localCTR.Weights)
		})
	}
}

// compareWeights checks got against the in-process run's weights want: 1e-12
// relative (TestJobServer says why), and logs whether they were bit-identical.
func compareWeights(t *testing.T, what string, got, want []float64) {
	t.Helper()
	var d, s float64
	identical := true
	for i, w := range want {
		d, s = max(d, math.Abs(got[i]-w)), max(s, math.Abs(w))
		identical = identical && math.Float64bits(got[i]) == math.Float64bits(w)
	}
	if d/s > 1e-12 {
		t.Errorf("%s: weights differ from the in-process run's by %.3g relative, want ≤ 1e-12", what, d/s)
	}
	t.Logf("weights through the job server (%s): bit-identical %v, largest difference %.3g relative", what, identical, d/s)
}

// goCommand is the go command that built this test, for building the binaries.
func goCommand(t *testing.T) string {
	t.Helper()
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(goBin); err != nil {
		if goBin, err = exec.LookPath("go"); err != nil {
			t.Skipf("no go command to build with: %v", err)
		}
	}
	return goBin
}

// bootCopy matches the directory the SDK's boot copies the worker binary into, in the
// line of its log that says so.
var bootCopy = regexp.MustCompile(`To:\\?"(/tmp/bin[0-9]+)/worker\\?"`)

// startJobServer starts prism's job server on a free port, waits until it accepts
// connections and returns its endpoint; at the end of the test it stops it and removes
// the copies of the worker binary that boot left (named in the job server's log).
func startJobServer(t *testing.T, prism, dir string) string {
	t.Helper()
	l, err := net.Listen("tcp", "localhost:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	logPath := filepath.Join(dir, "prism.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(prism, "--job_port="+strconv.Itoa(port), "--serve_http=false", "--log_level=debug", "--log_kind=text")
	c.Stdout, c.Stderr = logFile, logFile
	// The workers it starts run in its directory, where boot writes pipeline_options.json.
	c.Dir = filepath.Join(dir, "jobserver")
	if err := os.Mkdir(c.Dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- c.Wait() }()
	t.Cleanup(func() {
		c.Process.Kill()
		<-exited
		logFile.Close()
		b, _ := os.ReadFile(logPath)
		for _, m := range bootCopy.FindAllSubmatch(b, -1) {
			os.RemoveAll(string(m[1]))
		}
		if t.Failed() {
			t.Logf("the job server's log (last 4000 bytes):\n%s", b[max(0, len(b)-4000):])
		}
	})
	endpoint := fmt.Sprintf("localhost:%d", port)
	for deadline := time.Now().Add(time.Minute); ; {
		select {
		case err := <-exited:
			b, _ := os.ReadFile(logPath)
			t.Fatalf("the job server exited: %v\n%s", err, b)
		default:
		}
		if conn, err := net.Dial("tcp", endpoint); err == nil {
			conn.Close()
			return endpoint
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job server did not listen on %s within a minute", endpoint)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// writeShards writes d as k LIBSVM shards dir/part-0.svm … of about equal rows, in d's
// order.
func writeShards(t *testing.T, d *data.Dataset, dir string, k int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for s := range k {
		rows := make([]int, 0, d.Rows()/k+1)
		for i := s * d.Rows() / k; i < (s+1)*d.Rows()/k; i++ {
			rows = append(rows, i)
		}
		var b bytes.Buffer
		if err := data.WriteLibSVM(&b, d.Subset(rows)); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.svm", s)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
