module github.com/aucopt/aucopt

go 1.26

require (
	github.com/klauspost/cpuid/v2 v2.3.0
	github.com/spf13/pflag v1.0.10
	github.com/ulikunitz/xz v0.5.12
	gonum.org/v1/gonum v0.17.0
)

require (
	golang.org/x/sys v0.30.0 // indirect
	golang.org/x/tools v0.30.0 // indirect
)
