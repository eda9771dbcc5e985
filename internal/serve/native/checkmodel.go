package native

import "fmt"

// CheckModel says whether the agent can run the model called name: configured,
// or listed by a server (ids and aliases). serve calls it at start for every
// model it was given, so a wrong name fails there instead of at each run.
func (n *Native) CheckModel(name string) error {
	env, err := n.baseEnv()
	if err != nil {
		return fmt.Errorf("load configuration: %w", err)
	}
	_, err = env.Config.Model(name)
	return err
}
