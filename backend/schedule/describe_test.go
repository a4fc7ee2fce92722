package schedule

import "testing"

func TestDescribeSaysCommonShapesInWords(t *testing.T) {
	cases := map[string]string{
		"0 2 * * *":    "every day at 02:00",
		"30 9 * * 1-5": "weekdays at 09:30",
		"15 * * * *":   "every hour at :15",
		"0 8 * * 1":    "every Monday at 08:00",
		"0 8 * * 7":    "every Sunday at 08:00",
		"0 10 * * 0,6": "weekends at 10:00",
		"0 3 15 * *":   "on day 15 of every month at 03:00",
		"*/10 * * * *": "every 10 minutes",
		"* * * * *":    "every minute",
		"@hourly":      "every hour at :00",
		"@daily":       "every day at 00:00",
		"@every 90m":   "every 1h30m",
		"@every 2h":    "every 2h",
		// Shapes it does not say briefly: the expression is shown instead.
		"0 2 1-7 * 1":  "",
		"0 9-17 * * *": "",
		"0 2 * 1 *":    "",
		"nonsense":     "",
	}
	for expr, want := range cases {
		if got := Describe(expr); got != want {
			t.Errorf("Describe(%q) = %q, want %q", expr, got, want)
		}
	}
}
