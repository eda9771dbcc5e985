package infra

import (
	"path"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/etalab-ia/albert-code/internal/graph"
)

// ResourcePrefix starts a Kubernetes object's qualified name:
// `k8s:<namespace>/<Kind>/<name>`, or `k8s:<Kind>/<name>` when the manifest sets
// no namespace. The name is the repository's, not the file's, so that a
// reference in one file reaches the object another file defines.
const ResourcePrefix = "k8s:"

// ResourceQName names a Kubernetes object.
func ResourceQName(namespace, kind, name string) string {
	if namespace != "" {
		return ResourcePrefix + namespace + "/" + kind + "/" + name
	}
	return ResourcePrefix + kind + "/" + name
}

// kubernetes reads one document: an object with apiVersion, kind and
// metadata.name is a resource node; what it names anywhere in its body is a
// reference (refRules), and so is every container image.
func kubernetes(f *facts, doc *yaml.Node) {
	kind, meta := scalar(get(doc, "kind")), get(doc, "metadata")
	name := scalar(get(meta, "name"))
	if scalar(get(doc, "apiVersion")) == "" || kind == "" || name == "" {
		return
	}
	ns := scalar(get(meta, "namespace"))
	q := ResourceQName(ns, kind, name)
	line := get(meta, "name").Line
	f.define(f.ff.Path, q, kind+"/"+name, graph.KindResource, line, endLine(doc), "kind: "+kind+", name: "+name)
	if kind == "List" {
		return
	}
	f.objectRefs(q, ns, doc, 0)
}

// refRule: under key, a mapping whose field names an object of kind (Kind
// empty: the mapping's own `kind` field says it).
type refRule struct {
	kind, field string
}

// refRules are the keys under which a manifest names another object.
var refRules = map[string][]refRule{
	"configMapRef":          {{"ConfigMap", "name"}},
	"configMapKeyRef":       {{"ConfigMap", "name"}},
	"configMap":             {{"ConfigMap", "name"}},
	"secretRef":             {{"Secret", "name"}},
	"secretKeyRef":          {{"Secret", "name"}},
	"secret":                {{"Secret", "secretName"}},
	"persistentVolumeClaim": {{"PersistentVolumeClaim", "claimName"}},
	"service":               {{"Service", "name"}}, // an Ingress backend
	"scaleTargetRef":        {{"", "name"}},
	"roleRef":               {{"", "name"}},
	"targetRef":             {{"", "name"}},
}

// scalarRefs are keys whose scalar value names an object.
var scalarRefs = map[string]string{
	"serviceAccountName": "ServiceAccount",
	"serviceName":        "Service", // a StatefulSet's governing service, an old Ingress backend
	"priorityClassName":  "PriorityClass",
}

// objectRefs walks an object's body for the objects and images it names.
func (f *facts) objectRefs(from, ns string, n *yaml.Node, depth int) {
	if n == nil || depth > 64 {
		return
	}
	switch n.Kind {
	case yaml.SequenceNode:
		for _, c := range n.Content {
			f.objectRefs(from, ns, c, depth+1)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i].Value, n.Content[i+1]
			switch {
			case k == "metadata" && depth == 0:
				continue
			case k == "image" && scalar(v) != "":
				f.edge(from, ImagePrefix+v.Value, graph.EdgeReferences, v.Line)
				continue
			case k == "imagePullSecrets" && v.Kind == yaml.SequenceNode:
				for _, s := range v.Content {
					if nm := get(s, "name"); scalar(nm) != "" {
						f.edge(from, ResourceQName(ns, "Secret", nm.Value), graph.EdgeReferences, nm.Line)
					}
				}
				continue
			case scalarRefs[k] != "" && scalar(v) != "":
				f.edge(from, ResourceQName(ns, scalarRefs[k], v.Value), graph.EdgeReferences, v.Line)
				continue
			}
			for _, r := range refRules[k] {
				nm := get(v, r.field)
				kind := r.kind
				if kind == "" {
					kind = scalar(get(v, "kind"))
				}
				if scalar(nm) != "" && kind != "" {
					f.edge(from, ResourceQName(ns, kind, nm.Value), graph.EdgeReferences, nm.Line)
				}
			}
			f.objectRefs(from, ns, v, depth+1)
		}
	}
}

// kustomization reads a kustomization.yaml: `resources`, `bases`, `components`
// and the patch files are imports of the files they list (a folder's
// kustomization.yaml for a folder); `images` are references to the images set;
// each ConfigMap or Secret generator defines its object (in the kustomization's
// `namespace`) and references the files it reads.
func kustomization(f *facts, doc *yaml.Node) {
	rel := f.ff.Path
	for _, key := range []string{"resources", "bases", "components", "patchesStrategicMerge"} {
		for _, r := range scalars(get(doc, key)) {
			f.kustomizeImport(r.Value, r.Line)
		}
	}
	if patches := get(doc, "patches"); patches != nil && patches.Kind == yaml.SequenceNode {
		for _, p := range patches.Content {
			if pp := get(p, "path"); scalar(pp) != "" {
				f.kustomizeImport(pp.Value, pp.Line)
			}
		}
	}
	if images := get(doc, "images"); images != nil && images.Kind == yaml.SequenceNode {
		for _, img := range images.Content {
			name := scalar(get(img, "newName"))
			if name == "" {
				name = scalar(get(img, "name"))
			}
			if tag := scalar(get(img, "newTag")); tag != "" && name != "" {
				name += ":" + tag
			}
			if name != "" {
				f.edge(rel, ImagePrefix+name, graph.EdgeReferences, img.Line)
			}
		}
	}
	ns := scalar(get(doc, "namespace"))
	for key, kind := range map[string]string{"configMapGenerator": "ConfigMap", "secretGenerator": "Secret"} {
		gens := get(doc, key)
		if gens == nil || gens.Kind != yaml.SequenceNode {
			continue
		}
		for _, g := range gens.Content {
			nm := get(g, "name")
			if scalar(nm) == "" {
				continue
			}
			q := ResourceQName(ns, kind, nm.Value)
			f.define(rel, q, kind+"/"+nm.Value, graph.KindResource, nm.Line, endLine(g), key+" "+nm.Value)
			for _, field := range []string{"files", "envs", "env"} {
				for _, file := range scalars(get(g, field)) {
					_, p, ok := strings.Cut(file.Value, "=") // `key=path`
					if !ok {
						p = file.Value
					}
					f.fileRef(q, p, graph.EdgeReferences, file.Line)
				}
			}
		}
	}
}

// kustomizeImport adds the import of a listed resource: a YAML or JSON file, or
// a folder, whose kustomization.yaml is then the target.
func (f *facts) kustomizeImport(entry string, line int) {
	switch strings.ToLower(path.Ext(entry)) {
	case ".yaml", ".yml", ".json":
	default:
		if !strings.Contains(entry, "://") && !strings.HasPrefix(entry, "github.com/") {
			entry = path.Join(entry, "kustomization.yaml")
		}
	}
	f.fileRef(f.ff.Path, entry, graph.EdgeImports, line)
}
