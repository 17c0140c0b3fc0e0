//go:build unix

package atomicfile

import (
	"fmt"
	"os"
	"syscall"
)

// openDescriptor duplicates the descriptor path names (see
// descriptorNumber), so that writes share its offset and flags (O_APPEND
// included); nil, nil when path names none.
func openDescriptor(path string) (*os.File, error) {
	n := descriptorNumber(path)
	if n < 0 {
		return nil, nil
	}
	fd, err := syscall.Dup(n)
	if err != nil {
		return nil, fmt.Errorf("duplicate descriptor %d: %w", n, err)
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), path), nil
}
