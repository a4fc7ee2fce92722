// Package secretstest holds the corpus of credential formats the secret
// scrubbing is tested with: each sample as an agent would print it and the
// secret values that must not survive. The values are generated, well
// formed and not real. Only tests import this package.
package secretstest

import (
	"encoding/base64"
	"strings"
)

// Sample is one credential format.
type Sample struct {
	// Name says what the format is.
	Name string
	// Text is how an agent prints it (a config dump, an env listing, a command).
	Text string
	// Secrets are the values that must not appear anywhere after scrubbing.
	Secrets []string
}

// gen returns n characters of alphabet, deterministic per seed.
func gen(seed string, n int, alphabet string) string {
	h := uint32(2166136261)
	for i := 0; i < len(seed); i++ {
		h = (h ^ uint32(seed[i])) * 16777619
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		h ^= h << 13
		h ^= h >> 17
		h ^= h << 5
		b.WriteByte(alphabet[h%uint32(len(alphabet))])
	}
	return b.String()
}

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	lowerN = "abcdefghijklmnopqrstuvwxyz0123456789"
	hexd   = "0123456789abcdef"
	b64    = alnum + "+/"
	urlc   = alnum + "-_"
)

// privateKeyBody is the base64 body of a generated PEM key (a 2048-bit
// key's length), one line per 64 characters.
func privateKeyBody(seed string) []string { return keyLines(seed, 64*25+20) }

// keyLines is n characters of generated base64, one line per 64.
func keyLines(seed string, n int) []string {
	body := gen(seed, n, b64)
	var lines []string
	for i := 0; i < len(body); i += 64 {
		lines = append(lines, body[i:min(len(body), i+64)])
	}
	return lines
}

// Corpus returns the samples: at least 24 formats.
func Corpus() []Sample {
	anthropic := "sk-ant-api03-" + gen("anthropic", 93, urlc) + "AA"
	openai := "sk-proj-" + gen("openai1", 58, urlc) + "T3BlbkFJ" + gen("openai2", 58, urlc)
	ghClassic := "ghp_" + gen("ghp", 36, alnum)
	ghFine := "github_pat_" + gen("ghfine1", 22, alnum) + "_" + gen("ghfine2", 59, alnum)
	gitlab := "glpat-" + gen("gitlab", 20, urlc)
	awsID := "AKIA" + gen("awsid", 16, upper)
	awsSecret := gen("awssecret", 40, b64)
	pkLines := privateKeyBody("gcp")
	gcpKey := "-----BEGIN PRIVATE KEY-----\\n" + strings.Join(pkLines, "\\n") + "\\n-----END PRIVATE KEY-----\\n"
	azureKey := gen("azure", 86, b64) + "=="
	slack := "xoxb-" + gen("slack1", 12, "0123456789") + "-" + gen("slack2", 13, "0123456789") + "-" + gen("slack3", 24, alnum)
	stripe := "sk_live_" + gen("stripe", 99, alnum)
	twilio := "SK" + gen("twilio", 32, hexd)
	sendgrid := "SG." + gen("sg1", 22, urlc) + "." + gen("sg2", 43, urlc)
	npm := "npm_" + gen("npm", 36, alnum)
	pypi := "pypi-AgEIcHlwaS5vcmc" + gen("pypi", 70, urlc)
	hf := "hf_" + gen("hf", 34, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9." + "eyJ" + gen("jwt1", 60, alnum) + "." + gen("jwt2", 43, urlc)
	rsaLines := privateKeyBody("rsa")
	dbPass := gen("dbpass", 18, alnum)
	envSecret := gen("envsecret", 32, alnum)
	urlPass := gen("urlpass", 16, alnum)
	bearer := gen("bearer", 48, urlc)
	basic := base64.StdEncoding.EncodeToString([]byte("admin:" + gen("basic", 20, alnum)))
	google := "AIza" + gen("google", 35, urlc)
	shopify := "shpat_" + gen("shopify", 32, hexd)
	digitalocean := "dop_v1_" + gen("do", 64, hexd)
	yamlPass := gen("yamlpw", 14, alnum) + "!9"
	lettersPass := gen("dbletters", 18, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
	saLines := keyLines("service-account", 64*49+32) // a 4096-bit key's length
	return []Sample{
		{"Anthropic API key", "ANTHROPIC_API_KEY=" + anthropic, []string{anthropic}},
		{"OpenAI API key", `export OPENAI_API_KEY="` + openai + `"`, []string{openai}},
		{"GitHub classic token", "git remote set-url origin https://x-access-token:" + ghClassic + "@github.com/acme/app.git  # token " + ghClassic, []string{ghClassic}},
		{"GitHub fine-grained token", "GH_TOKEN is " + ghFine, []string{ghFine}},
		{"GitLab token", "glab auth login --token " + gitlab, []string{gitlab}},
		{"AWS access key id", "aws_access_key_id = " + awsID, []string{awsID}},
		{"AWS secret access key", "aws_secret_access_key = " + awsSecret, []string{awsSecret}},
		{"GCP service-account key", `{"type": "service_account", "project_id": "acme-prod", "private_key_id": "` + gen("gcpid", 40, hexd) +
			`", "private_key": "` + gcpKey + `", "client_email": "ci@acme-prod.iam.gserviceaccount.com"}`, pkLines},
		{"Azure storage connection string", "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmeprod;AccountKey=" + azureKey + ";EndpointSuffix=core.windows.net", []string{azureKey}},
		{"Slack bot token", "SLACK_BOT_TOKEN: " + slack, []string{slack}},
		{"Stripe secret key", "stripe.api_key = '" + stripe + "'", []string{stripe}},
		{"Twilio API key", "Using Twilio key " + twilio + " for SMS", []string{twilio}},
		{"SendGrid API key", "SENDGRID_API_KEY=" + sendgrid, []string{sendgrid}},
		{"npm token", "//registry.npmjs.org/:_authToken=" + npm, []string{npm}},
		{"PyPI token", "[pypi]\n  username = __token__\n  password = " + pypi, []string{pypi}},
		{"Hugging Face token", "huggingface-cli login --token " + hf, []string{hf}},
		{"JWT", "Cookie: session=" + jwt, []string{jwt}},
		{"PEM private key", "-----BEGIN RSA PRIVATE KEY-----\n" + strings.Join(rsaLines, "\n") + "\n-----END RSA PRIVATE KEY-----", rsaLines},
		{".env line", "DATABASE_PASSWORD=" + dbPass + "\nAPP_SECRET='" + envSecret + "'", []string{dbPass, envSecret}},
		{"URL with credentials", "DATABASE_URL=postgres://app:" + urlPass + "@db.internal:5432/app", []string{urlPass}},
		{"Bearer header", "curl -H 'Authorization: Bearer " + bearer + "' https://api.example.com/v1/me", []string{bearer}},
		{"Basic auth header", "Authorization: Basic " + basic, []string{basic}},
		{"Google API key", "const key = \"" + google + "\";", []string{google}},
		{"Shopify access token", "SHOPIFY_ACCESS_TOKEN=" + shopify, []string{shopify}},
		{"DigitalOcean token", "doctl auth init -t " + digitalocean, []string{digitalocean}},
		{"YAML password", "database:\n  user: app\n  password: " + yamlPass, []string{yamlPass}},
		{".env line, letters only", "DATABASE_USER=app\nDATABASE_PASSWORD=" + lettersPass + "\nDATABASE_HOST=db.internal", []string{lettersPass}},
		{"GCP service-account key file", serviceAccount(saLines), saLines},
	}
}

// serviceAccount is a Google Cloud service-account key file as gcloud
// writes it (indented JSON, the key's lines joined with \n) around a
// private key of the given lines.
func serviceAccount(body []string) string {
	return "{\n" +
		`  "type": "service_account",` + "\n" +
		`  "project_id": "acme-prod",` + "\n" +
		`  "private_key_id": "` + gen("sa-key-id", 40, hexd) + `",` + "\n" +
		`  "private_key": "-----BEGIN PRIVATE KEY-----\n` + strings.Join(body, `\n`) + `\n-----END PRIVATE KEY-----\n",` + "\n" +
		`  "client_email": "deploy@acme-prod.iam.gserviceaccount.com",` + "\n" +
		`  "client_id": "104857600123456789012",` + "\n" +
		`  "auth_uri": "https://accounts.google.com/o/oauth2/auth",` + "\n" +
		`  "token_uri": "https://oauth2.googleapis.com/token",` + "\n" +
		`  "universe_domain": "googleapis.com"` + "\n" +
		"}"
}

// Text is every sample's text, one after another, separated by blank lines.
func Text() string {
	var b strings.Builder
	for _, s := range Corpus() {
		b.WriteString(s.Text)
		b.WriteString("\n\n")
	}
	return b.String()
}

// Secrets lists every secret value of the corpus.
func Secrets() []string {
	var out []string
	for _, s := range Corpus() {
		out = append(out, s.Secrets...)
	}
	return out
}
