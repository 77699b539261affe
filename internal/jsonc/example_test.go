package jsonc_test

import (
	"fmt"
	"os"

	"github.com/mcpwire/mcpwire/internal/jsonc"
)

func ExampleDoc_Set() {
	in := []byte(`{
  // user settings
  "theme": "dark", // or "light"
  "mcpServers": {
    "old": {"command": "old-server"},
  },
}
`)
	d, err := jsonc.Parse(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := d.Set([]string{"mcpServers", "fs"}, []byte(`{"command":"npx","args":["-y","server-filesystem"]}`)); err != nil {
		fmt.Println(err)
		return
	}
	if _, err := d.Delete([]string{"mcpServers", "old"}); err != nil {
		fmt.Println(err)
		return
	}
	_, _ = d.WriteTo(os.Stdout)
	// Output:
	// {
	//   // user settings
	//   "theme": "dark", // or "light"
	//   "mcpServers": {
	//     "fs": {
	//       "command": "npx",
	//       "args": [
	//         "-y",
	//         "server-filesystem"
	//       ]
	//     },
	//   },
	// }
}

func ExampleParse() {
	_, err := jsonc.Parse([]byte("{\n  \"a\": 1,\n  \"b\" 2\n}"))
	fmt.Println(err)
	// Output:
	// line 3, column 7: expected ':' after object key, found '2'
}

func ExampleDoc_Lookup() {
	d, err := jsonc.Parse([]byte(`{"mcpServers": {"gh": {"url": "https://x", /* note */}}}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	if v, ok := d.Lookup("mcpServers", "gh"); ok {
		fmt.Println(v.Kind(), string(v.JSON()), v.Keys())
	}
	// Output:
	// object {"url":"https://x"} [url]
}

func ExampleDecode() {
	d, err := jsonc.Decode([]byte(`{
  // mine
  "servers": {"gh": {"command": "gh-mcp", "args": ["stdio",]}},
}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, m := range d.Members {
		for _, entry := range m.Members {
			fmt.Printf("%s.%s = %s\n", m.Name, entry.Name, entry.Value)
			entry.Value.Members(func(name string, v jsonc.Raw) bool {
				s, isString := v.Text()
				fmt.Println(" ", name, v.Kind(), s, isString)
				return true
			})
		}
	}
	// Output:
	// servers.gh = {"command": "gh-mcp", "args": ["stdio" ]}
	//   command string gh-mcp true
	//   args array  false
}
