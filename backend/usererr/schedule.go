package usererr

import (
	"errors"
	"fmt"

	"github.com/boof-runner/boof-runner/backend/schedule"
)

// describeSchedule says what is wrong with a schedule's expression beyond
// the cron library's own words.
func describeSchedule(err error) (string, Code, bool) {
	var ie *schedule.IntervalError
	if errors.As(err, &ie) {
		return fmt.Sprintf("The interval of %q must be at least 1m (a schedule fires at most once a minute)", ie.Expr), InvalidInput, true
	}
	return "", "", false
}
