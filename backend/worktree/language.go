package worktree

import (
	"path"
	"strings"
)

// languageByExt maps a file extension (lower case, without its dot) to
// the highlight.js name of its language.
var languageByExt = map[string]string{
	"sh": "bash", "bash": "bash", "zsh": "bash", "c": "c", "h": "c", "cc": "cpp", "cpp": "cpp", "cxx": "cpp",
	"hpp": "cpp", "hh": "cpp", "cs": "csharp", "css": "css", "scss": "scss", "less": "less", "diff": "diff",
	"patch": "diff", "go": "go", "mod": "go", "graphql": "graphql", "gql": "graphql", "ini": "ini", "cfg": "ini",
	"java": "java", "js": "javascript", "mjs": "javascript", "cjs": "javascript", "jsx": "javascript",
	"json": "json", "jsonc": "json", "kt": "kotlin", "kts": "kotlin", "lua": "lua", "md": "markdown",
	"markdown": "markdown", "m": "objectivec", "mm": "objectivec", "pl": "perl", "pm": "perl", "php": "php",
	"proto": "protobuf", "py": "python", "pyi": "python", "r": "r", "rb": "ruby", "rs": "rust", "scala": "scala",
	"sql": "sql", "swift": "swift", "toml": "ini", "ts": "typescript", "mts": "typescript", "cts": "typescript",
	"tsx": "typescript", "html": "xml", "htm": "xml", "xml": "xml", "svg": "xml", "svelte": "xml", "vue": "xml",
	"yml": "yaml", "yaml": "yaml", "tf": "hcl", "hcl": "hcl", "dart": "dart", "ex": "elixir", "exs": "elixir",
	"erl": "erlang", "hs": "haskell", "clj": "clojure", "ml": "ocaml", "zig": "zig", "nix": "nix",
}

// languageByName maps a whole file name to its language.
var languageByName = map[string]string{
	"makefile": "makefile", "gnumakefile": "makefile", "dockerfile": "dockerfile", "containerfile": "dockerfile",
	"cmakelists.txt": "cmake", "gemfile": "ruby", "rakefile": "ruby", "go.sum": "plaintext", ".bashrc": "bash",
	".profile": "bash", ".gitignore": "plaintext", "jenkinsfile": "groovy",
}

// Language returns the highlight.js name of the language a file's path
// suggests (by its name, else its extension), "" when none does: the
// Review screen's syntax colouring hint.
func Language(p string) string {
	name := strings.ToLower(path.Base(p))
	if l, ok := languageByName[name]; ok {
		return l
	}
	if strings.HasPrefix(name, "dockerfile.") || strings.HasSuffix(name, ".dockerfile") {
		return "dockerfile"
	}
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		return languageByExt[name[i+1:]]
	}
	return ""
}
