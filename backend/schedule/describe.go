package schedule

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Describe says a cron expression in words for the common shapes ("every
// day at 02:00", "weekdays at 09:30", "every hour at :15", "every 90m");
// it returns "" for an expression it cannot say briefly (the expression
// itself is shown then). It does not check the expression: Parse does.
func Describe(expr string) string {
	expr = strings.TrimSpace(expr)
	switch expr {
	case "@hourly":
		return "every hour at :00"
	case "@daily", "@midnight":
		return "every day at 00:00"
	case "@weekly":
		return "every Sunday at 00:00"
	case "@monthly":
		return "on the 1st of every month at 00:00"
	case "@yearly", "@annually":
		return "every 1 January at 00:00"
	}
	if d, ok := strings.CutPrefix(expr, "@every "); ok {
		if dur, err := time.ParseDuration(strings.TrimSpace(d)); err == nil && dur > 0 {
			return "every " + shortDuration(dur)
		}
		return ""
	}
	f := strings.Fields(expr)
	if len(f) != 5 {
		return ""
	}
	minute, hour, dom, month, dow := f[0], f[1], f[2], f[3], f[4]
	m, okM := number(minute, 59)
	if step, ok := strings.CutPrefix(minute, "*/"); ok && hour == "*" && dom == "*" && month == "*" && dow == "*" {
		if n, err := strconv.Atoi(step); err == nil && n > 0 {
			return fmt.Sprintf("every %d minutes", n)
		}
	}
	if minute == "*" && hour == "*" && dom == "*" && month == "*" && dow == "*" {
		return "every minute"
	}
	if !okM || month != "*" {
		return ""
	}
	if hour == "*" && dom == "*" && dow == "*" {
		return fmt.Sprintf("every hour at :%02d", m)
	}
	h, okH := number(hour, 23)
	if !okH {
		return ""
	}
	at := fmt.Sprintf("%02d:%02d", h, m)
	switch {
	case dom == "*" && dow == "*":
		return "every day at " + at
	case dom == "*" && (dow == "1-5" || dow == "MON-FRI"):
		return "weekdays at " + at
	case dom == "*" && (dow == "0,6" || dow == "6,0" || dow == "SAT,SUN"):
		return "weekends at " + at
	case dom == "*":
		if d, ok := number(dow, 7); ok {
			return "every " + time.Weekday(d%7).String() + " at " + at
		}
	case dow == "*":
		if d, ok := number(dom, 31); ok && d >= 1 {
			return fmt.Sprintf("on day %d of every month at %s", d, at)
		}
	}
	return ""
}

// number reads a plain field value in [0, max].
func number(s string, max int) (int, bool) {
	n, err := strconv.Atoi(s)
	return n, err == nil && n >= 0 && n <= max
}

// shortDuration is d without its zero tail: 1h30m, 2h, 45s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}
