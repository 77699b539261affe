package policy

// The spellings these tests need, handed over as the client list hands over the
// clients' (package providers, which imports policy, cannot be imported here).
var (
	spellingDollarEnv = Spelling{Style: "${env:VAR}", Open: "${env:", Close: "}"}
	spellingBraceEnv  = Spelling{Style: "{env:VAR}", Open: "{env:", Close: "}"}
	spellingSecrets   = Spelling{Style: "${{ secrets.VAR }}", Open: "${{ secrets.", Close: " }}"}
	spellingNames     = Spelling{Style: "variable names (env_vars, env_http_headers, bearer_token_env_var)", ByName: true}
	spellingNone      = Spelling{Style: "none (references refused)"}
)

// Their styles.
var (
	StyleDollarEnv = spellingDollarEnv.Style
	StyleBraceEnv  = spellingBraceEnv.Style
	StyleSecrets   = spellingSecrets.Style
	StyleNames     = spellingNames.Style
	StyleNone      = spellingNone.Style
)

func init() {
	UseSpellings(func() []Spelling {
		return []Spelling{spellingDollarEnv, spellingBraceEnv, spellingSecrets, spellingNames, spellingNone}
	})
}
