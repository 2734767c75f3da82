package engine

import (
	"errors"
	"io/fs"
	"syscall"

	"github.com/aucopt/aucopt/engine/data"
	"github.com/aucopt/aucopt/engine/metric"
	"github.com/aucopt/aucopt/engine/model"
	"github.com/aucopt/aucopt/engine/solver"
)

// InputFault reports whether err is known to be the caller's input's fault, by the
// exit-status rule of aucopt's commands (status 2): bad names, parameters or settings
// (ErrInput, ErrUnknownBackend, solver.ErrParam, solver.ErrUnknownAlgorithm,
// data.ErrUnknownDataset), data that cannot be used (a *data.ParseError, data.ErrEmpty,
// data.ErrCorrupt, data.ErrCache, data of one class), a model that cannot be
// (model.ErrModel, model.ErrFeatureSpace), and files that are missing, unreadable or
// of the wrong kind (fs.ErrNotExist, fs.ErrPermission, EISDIR, ENOTDIR,
// data.ErrNotRegular). A disk's failure (DiskFailure) and divergence are never the
// input's, whatever wraps them; anything else is not known to be.
func InputFault(err error) bool {
	if err == nil || DiskFailure(err) || errors.Is(err, solver.ErrDiverged) {
		return false
	}
	var pe *data.ParseError
	if errors.As(err, &pe) {
		return true
	}
	for _, e := range []error{
		ErrInput, ErrUnknownBackend,
		solver.ErrParam, solver.ErrOneClass, solver.ErrUnknownAlgorithm,
		metric.ErrOneClass, metric.ErrLabel,
		data.ErrUnknownDataset, data.ErrCache, data.ErrCorrupt, data.ErrEmpty, data.ErrNotRegular,
		model.ErrModel, model.ErrFeatureSpace,
		fs.ErrNotExist, fs.ErrPermission, syscall.EISDIR, syscall.ENOTDIR,
	} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// DiskFailure reports whether err is the disk's failure, not the input's, whatever
// else wraps it: the file system is full (ENOSPC, EDQUOT), a file outgrew its limit
// (EFBIG), or the device failed (EIO). aucopt's commands exit 1 for it.
func DiskFailure(err error) bool {
	for _, e := range []error{syscall.ENOSPC, syscall.EDQUOT, syscall.EFBIG, syscall.EIO} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}
