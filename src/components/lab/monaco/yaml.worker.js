// monaco-yaml's language worker, imported from our own file so Vite bundles it (monaco-yaml README,
// "Why doesn't it work with Vite?").
import 'monaco-yaml/yaml.worker.js';
