package registry

// The registry knows no client: a profile's providerOverrides are keyed by client
// names and aliases, which the client list (package providers) owns. It hands its
// normaliser over with UseClients when the program starts, before any layer is read.

// clientName turns a providerOverrides key into the client's own name, and says
// whether a client has that name or alias. Until UseClients, only "*" is known.
var clientName = func(key string) (string, bool) { return key, key == AllProviders }

// UseClients sets the normaliser of providerOverrides keys: the client's own name for
// its name or one of its aliases, and whether a client has it ("*", every client, is
// returned as it is). The client list calls it once, as the program starts.
func UseClients(normalize func(key string) (name string, known bool)) { clientName = normalize }
