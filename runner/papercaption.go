package runner

import "github.com/icnsim/icnsim/study"

// paperCaption is the caption of a paper-form figure (plots/paper-*): what
// the paper's figure shows and how ours is drawn like it; ok is false when
// it does not know the figure, and figureCaption writes a generic one.
//
// The paper-form figure code replaces this stub with the captions of the
// figures it draws.
func paperCaption(f *study.File, name string) (caption string, ok bool) {
	return "", false
}
