package config

// applyVertex reads the Vertex AI fields of a [[providers]] entry. A provider of
// kind vertex with a project and a location speaks to Vertex AI, where
// api_key_env, when set, names a variable holding an OAuth access token (such as
// the output of `gcloud auth print-access-token`) and, when empty, Application
// Default Credentials are used; without a project it speaks to the Gemini API,
// with the key named by api_key_env.
func applyVertex(p *Provider, l *providerLayer, rec func(field string)) {
	if l.Project != nil {
		p.Project = *l.Project
		rec("project")
	}
	if l.Location != nil {
		p.Location = *l.Location
		rec("location")
	}
}
