// `/api` itself (no segment after it) answers like every unknown API path: 404 in the envelope.
export { DELETE, GET, PATCH, POST, PUT } from "./[...path]/route";
