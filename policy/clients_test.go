package policy

// The spellings these tests need, declared as the clients declare theirs (package
// providers, which imports policy, cannot be imported here).
var (
	StyleDollarEnv = Declare(Spelling{Style: "${env:VAR}", Open: "${env:", Close: "}"})
	StyleBraceEnv  = Declare(Spelling{Style: "{env:VAR}", Open: "{env:", Close: "}"})
	StyleSecrets   = Declare(Spelling{Style: "${{ secrets.VAR }}", Open: "${{ secrets.", Close: " }}"})
	StyleNames     = Declare(Spelling{Style: "variable names (env_vars, env_http_headers, bearer_token_env_var)"})
	StyleNone      = Declare(Spelling{Style: "none (references refused)"})
)
