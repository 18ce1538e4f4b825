// The viewer feature's public surface: the full-screen asset viewer. It is heavy and shown on demand:
// import it only with import() (React.lazy), so that it stays in a chunk of its own.
export { AssetViewer } from "./asset-viewer";
