// Command callwalk measures how a training run's configuration travels from an entry
// point to the solver: a depth-first walk of the static call graph from the entry
// function, in call-site order, through the module's functions that lead to the solver
// package (each visited once), counting the moves between packages and the climbs (a
// move to a package that imports, directly or not, the package left: a return or a
// callback up the import graph).
package main

import (
	"flag"
	"fmt"
	"go/token"
	"os"
	"sort"
	"strings"

	"golang.org/x/tools/go/callgraph"
	"golang.org/x/tools/go/callgraph/static"
	"golang.org/x/tools/go/packages"
	"golang.org/x/tools/go/ssa"
	"golang.org/x/tools/go/ssa/ssautil"
)

func main() {
	dir := flag.String("dir", ".", "module root")
	entry := flag.String("entry", "github.com/aucopt/aucopt/engine.Train", "entry function")
	target := flag.String("target", "github.com/aucopt/aucopt/engine/solver", "solver package")
	fits := flag.String("fits", "Run,NewBatch,NewOnline,NewMulti", "the target package's functions and methods that make or run a learner; empty: every one")
	verbose := flag.Bool("v", false, "print the walk")
	flag.Parse()
	const mod = "github.com/aucopt/aucopt"
	cfg := &packages.Config{Mode: packages.LoadAllSyntax, Dir: *dir}
	pkgs, err := packages.Load(cfg, mod+"/engine")
	if err != nil || packages.PrintErrors(pkgs) > 0 {
		fmt.Fprintln(os.Stderr, "load failed", err)
		os.Exit(1)
	}
	// imports[p] = every package p imports, directly or not.
	imports := map[string]map[string]bool{}
	var deps func(p *packages.Package) map[string]bool
	deps = func(p *packages.Package) map[string]bool {
		if m, ok := imports[p.PkgPath]; ok {
			return m
		}
		m := map[string]bool{}
		imports[p.PkgPath] = m
		for path, q := range p.Imports {
			m[path] = true
			for k := range deps(q) {
				m[k] = true
			}
		}
		return m
	}
	for _, p := range pkgs {
		deps(p)
	}
	prog, _ := ssautil.AllPackages(pkgs, ssa.InstantiateGenerics)
	prog.Build()
	cg := static.CallGraph(prog)
	pkgOf := func(f *ssa.Function) string {
		for f.Parent() != nil {
			f = f.Parent()
		}
		if f.Pkg == nil {
			if f.Origin() != nil && f.Origin().Pkg != nil {
				return f.Origin().Pkg.Pkg.Path()
			}
			return ""
		}
		return f.Pkg.Pkg.Path()
	}
	inMod := func(f *ssa.Function) bool { p := pkgOf(f); return p == mod || strings.HasPrefix(p, mod+"/") }
	names := map[string]bool{}
	for _, n := range strings.Split(*fits, ",") {
		if n != "" {
			names[n] = true
		}
	}
	isTarget := func(f *ssa.Function) bool {
		return pkgOf(f) == *target && f.Parent() == nil && (len(names) == 0 || names[f.Name()])
	}
	var root *ssa.Function
	for f, n := range cg.Nodes {
		if n != nil && f != nil && f.Parent() == nil && pkgOf(f)+"."+f.Name() == *entry {
			root = f
		}
	}
	if root == nil {
		fmt.Fprintln(os.Stderr, "no entry", *entry)
		os.Exit(1)
	}
	children := func(f *ssa.Function) []*ssa.Function {
		n := cg.Nodes[f]
		if n == nil {
			return nil
		}
		out := append([]*callgraph.Edge(nil), n.Out...)
		sort.SliceStable(out, func(i, j int) bool { return out[i].Pos() < out[j].Pos() })
		var fs []*ssa.Function
		seen := map[*ssa.Function]bool{}
		for _, e := range out {
			if g := e.Callee.Func; inMod(g) && !seen[g] {
				seen[g] = true
				fs = append(fs, g)
			}
		}
		return fs
	}
	// reaches[f]: the target is reachable from f through module functions.
	reaches := map[*ssa.Function]bool{}
	state := map[*ssa.Function]int{}
	var reach func(f *ssa.Function) bool
	reach = func(f *ssa.Function) bool {
		if isTarget(f) {
			return true
		}
		switch state[f] {
		case 1:
			return false // on the stack: a cycle adds nothing new
		case 2:
			return reaches[f]
		}
		state[f] = 1
		r := false
		for _, g := range children(f) {
			if reach(g) {
				r = true
			}
		}
		state[f], reaches[f] = 2, r
		return r
	}
	reach(root)
	moves, climbs := 0, 0
	files := map[string]bool{}
	returnsToLeft := 0
	cur := pkgOf(root)
	curFile := fileOf(prog.Fset, root)
	left := map[string]bool{}
	move := func(to *ssa.Function, why string) {
		p, file := pkgOf(to), fileOf(prog.Fset, to)
		files[file] = true
		if file != curFile {
			if left[file] {
				returnsToLeft++
			}
			left[curFile] = true
		}
		if p != cur {
			moves++
			up := imports[p][cur]
			if up {
				climbs++
			}
			if *verbose {
				mark := ""
				if up {
					mark = "  ^ climb"
				}
				fmt.Printf("%s %s -> %s (%s)%s\n", why, short(cur), short(p), to.Name(), mark)
			}
		}
		cur, curFile = p, file
	}
	visited := map[*ssa.Function]bool{}
	var walk func(f *ssa.Function)
	walk = func(f *ssa.Function) {
		visited[f] = true
		if isTarget(f) {
			return
		}
		for _, g := range children(f) {
			if visited[g] || !(isTarget(g) || reaches[g]) {
				continue
			}
			move(g, "call  ")
			walk(g)
			move(f, "return")
		}
	}
	files[curFile] = true
	walk(root)
	fmt.Printf("%s to %s: %d moves between packages, %d climbs up the import graph, %d files, %d returns to a file already left\n",
		*entry, *target, moves, climbs, len(files), returnsToLeft)
}

func fileOf(fset *token.FileSet, f *ssa.Function) string {
	for f.Parent() != nil {
		f = f.Parent()
	}
	if !f.Pos().IsValid() {
		return "?"
	}
	return fset.Position(f.Pos()).Filename
}

func short(p string) string { return strings.TrimPrefix(p, "github.com/aucopt/aucopt/") }
