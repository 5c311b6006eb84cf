// The API reference, rendered on the server from the OpenAPI document (lib/openapi, the one
// /api/openapi.json serves) in the console's UI kit: operations by tag with their parameters,
// bodies, answers and error codes, then the schemas. No JavaScript of its own.
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";
import { TBody, Td, Th, THead, Tr } from "@/components/ui/table";
import type { OpenApiDocument } from "@/lib/openapi/document";
import { Inline, Markdown, ScrollTable } from "./markdown";

type Json = Record<string, any>;

const METHODS = ["get", "post", "put", "patch", "delete", "head", "options"] as const;
const METHOD_TONES: Record<string, string> = {
  get: "bg-sky-50 text-sky-800 ring-sky-300",
  post: "bg-emerald-50 text-emerald-800 ring-emerald-300",
  put: "bg-violet-50 text-violet-800 ring-violet-300",
  patch: "bg-amber-50 text-amber-900 ring-amber-300",
  delete: "bg-red-50 text-red-800 ring-red-300",
  head: "bg-zinc-100 text-zinc-700 ring-zinc-300",
  options: "bg-zinc-100 text-zinc-700 ring-zinc-300",
};
const AUTH: Record<string, string> = {
  accessKey: "Access Key (Authorization: Bearer ak_...)",
  userToken: "User token (Authorization: Bearer ut_...)",
};

interface Op {
  method: string;
  path: string;
  op: Json;
}

const refName = (ref: string) => ref.split("/").pop()!;
const schemaAnchor = (name: string) => `schema-${name}`;

function resolve(doc: OpenApiDocument, value: Json): Json {
  if (!value?.$ref) return value;
  return (value.$ref as string)
    .slice(2)
    .split("/")
    .reduce((o: Json, k: string) => o[k], doc as Json);
}

/** A schema's type in one line; component references link to the Schemas section. */
function TypeOf({ schema }: { schema: Json | undefined }): ReactNode {
  if (!schema || Object.keys(schema).length === 0) return <span>any</span>;
  if (schema.$ref) {
    const name = refName(schema.$ref);
    return (
      <a href={`#${schemaAnchor(name)}`} className="font-medium text-indigo-700 underline underline-offset-2">
        {name}
      </a>
    );
  }
  const union = schema.anyOf ?? schema.oneOf;
  if (union) {
    const parts = (union as Json[]).filter((s) => s.type !== "null");
    const nullable = parts.length < union.length;
    return (
      <>
        {parts.map((s, i) => (
          <span key={i}>
            {i > 0 && " | "}
            <TypeOf schema={s} />
          </span>
        ))}
        {nullable && " | null"}
      </>
    );
  }
  if (schema.allOf) return <TypeOf schema={schema.allOf[0]} />;
  if (schema.const !== undefined) return <code className="font-mono text-xs">{JSON.stringify(schema.const)}</code>;
  if (schema.enum) {
    const values = schema.enum as unknown[];
    if (values.length > 8) return <span>one of {values.length} values</span>;
    return <code className="font-mono text-xs break-words">{values.map((v) => JSON.stringify(v)).join(" | ")}</code>;
  }
  const types = (Array.isArray(schema.type) ? schema.type : [schema.type]).filter(Boolean) as string[];
  const main = types.filter((t) => t !== "null");
  const label = main.map((t) => {
    if (t === "array")
      return (
        <span key={t}>
          array of <TypeOf schema={schema.items} />
        </span>
      );
    if (t === "object" && schema.additionalProperties && !schema.properties) return <span key={t}>object (map)</span>;
    return <span key={t}>{schema.format ? `${t} (${schema.format})` : t}</span>;
  });
  return (
    <>
      {label.length ? label : "any"}
      {types.includes("null") && " | null"}
    </>
  );
}

/** Rules of a schema worth reading: default, bounds, pattern. */
function rules(schema: Json): string[] {
  const out: string[] = [];
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.minimum !== undefined) out.push(`min ${schema.minimum}`);
  if (schema.maximum !== undefined) out.push(`max ${schema.maximum}`);
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`);
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`);
  if (schema.maxItems !== undefined) out.push(`max ${schema.maxItems} items`);
  if (schema.pattern) out.push(`pattern ${schema.pattern}`);
  return out;
}

interface Field {
  name: string;
  required: boolean;
  schema: Json;
}

/** An object's properties, inline objects flattened into dotted names (`summary.failed`). */
function fieldsOf(schema: Json, prefix = "", depth = 0): Field[] {
  const required = new Set<string>(schema.required ?? []);
  return Object.entries<Json>(schema.properties ?? {}).flatMap(([name, prop]) => {
    const field = { name: `${prefix}${name}`, required: required.has(name), schema: prop };
    if (prop.type === "object" && prop.properties && depth < 2)
      return [field, ...fieldsOf(prop, `${field.name}.`, depth + 1)];
    return [field];
  });
}

/** A name cell: the name, "required", and under it where it goes and its type. */
function NameCell({ name, required, meta }: { name: string; required?: boolean; meta: ReactNode }) {
  return (
    <Td className="w-2/5 text-xs">
      <span className="font-mono break-words text-zinc-900">{name}</span>
      {required && <span className="ml-1 text-[11px] text-red-700">required</span>}
      <span className="mt-0.5 block break-words text-zinc-600">{meta}</span>
    </Td>
  );
}

function Notes({ schema, description }: { schema: Json | undefined; description?: string }) {
  const notes = schema ? rules(schema) : [];
  return (
    <Td className="text-xs text-zinc-700">
      {description && <Inline text={description} />}
      {notes.length > 0 && <span className="block break-words text-zinc-600">{notes.join("; ")}</span>}
    </Td>
  );
}

function FieldsTable({ schema, label }: { schema: Json; label: string }) {
  const fields = fieldsOf(schema);
  if (fields.length === 0) return null;
  return (
    <ScrollTable label={label}>
      <THead>
        <Tr>
          <Th>Field</Th>
          <Th>Description</Th>
        </Tr>
      </THead>
      <TBody>
        {fields.map((f) => (
          <Tr key={f.name}>
            <NameCell name={f.name} required={f.required} meta={<TypeOf schema={f.schema} />} />
            <Notes schema={f.schema} description={f.schema.description} />
          </Tr>
        ))}
      </TBody>
    </ScrollTable>
  );
}

function Example({ value, label }: { value: unknown; label: string }) {
  return (
    <figure className="min-w-0">
      <figcaption className="mb-1 text-xs font-medium text-zinc-600">{label}</figcaption>
      <pre
        tabIndex={0}
        className="max-h-80 overflow-auto rounded-md bg-zinc-900 p-3 font-mono text-xs leading-5 text-zinc-100"
      >
        {JSON.stringify(value, null, 2)}
      </pre>
    </figure>
  );
}

function Content({ doc, content, id }: { doc: OpenApiDocument; content: Json | undefined; id: string }) {
  if (!content) return null;
  return (
    <div className="space-y-3">
      {Object.entries<Json>(content).map(([type, media]) => {
        const examples = Object.entries<Json>(media.examples ?? {}).map(
          ([name, ex]) => [name, resolve(doc, ex)] as const,
        );
        return (
          <div key={type} className="space-y-2">
            <p className="text-xs text-zinc-600">
              <code className="font-mono">{type}</code>
              {media.schema && (
                <>
                  {" · "}
                  <TypeOf schema={media.schema} />
                </>
              )}
            </p>
            {media.schema && !media.schema.$ref && media.schema.properties && (
              <FieldsTable schema={media.schema} label={`${id} ${type} fields`} />
            )}
            {examples.slice(0, 2).map(([name, ex]) => (
              <Example key={name} value={ex.value} label={`Example: ${ex.summary ?? name}`} />
            ))}
          </div>
        );
      })}
    </div>
  );
}

function MethodBadge({ method }: { method: string }) {
  return (
    <span
      className={cn(
        "inline-flex w-16 shrink-0 justify-center rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold uppercase ring-1 ring-inset",
        METHOD_TONES[method],
      )}
    >
      {method}
    </span>
  );
}

function Operation({ doc, method, path, op }: Op & { doc: OpenApiDocument }) {
  const id = op.operationId as string;
  const security = (op.security as Json[]).flatMap((s) => Object.keys(s));
  const parameters = (op.parameters ?? []).map((p: Json) => resolve(doc, p));
  const body = op.requestBody as Json | undefined;
  return (
    <article
      id={id}
      aria-labelledby={`${id}-title`}
      className="scroll-mt-20 rounded-lg bg-white p-4 ring-1 ring-zinc-200 sm:p-5"
    >
      <div className="flex min-w-0 flex-wrap items-center gap-2">
        <MethodBadge method={method} />
        <code className="min-w-0 font-mono text-sm break-all text-zinc-900">{path}</code>
      </div>
      <h3 id={`${id}-title`} className="mt-2 text-base font-semibold text-zinc-900">
        {op.summary}
      </h3>
      <p className="mt-1 text-xs text-zinc-600">
        {security.length ? security.map((s) => AUTH[s] ?? s).join(" or ") : "No authentication"}
        {" · "}
        <code className="font-mono">{id}</code>
      </p>
      {op.description && (
        <div className="mt-3">
          <Markdown text={op.description} headingLevel={3} />
        </div>
      )}
      {parameters.length > 0 && (
        <section className="mt-4 space-y-2">
          <h4 className="text-sm font-semibold text-zinc-900">Parameters</h4>
          <ScrollTable label={`${id} parameters`}>
            <THead>
              <Tr>
                <Th>Name</Th>
                <Th>Description</Th>
              </Tr>
            </THead>
            <TBody>
              {parameters.map((p: Json) => (
                <Tr key={`${p.in}-${p.name}`}>
                  <NameCell
                    name={p.name}
                    required={p.required}
                    meta={
                      <>
                        {p.in} · <TypeOf schema={p.schema} />
                      </>
                    }
                  />
                  <Notes schema={p.schema} description={p.description} />
                </Tr>
              ))}
            </TBody>
          </ScrollTable>
        </section>
      )}
      {body && (
        <section className="mt-4 space-y-2">
          <h4 className="text-sm font-semibold text-zinc-900">Request body{body.required ? "" : " (optional)"}</h4>
          <Content doc={doc} content={body.content} id={`${id} request`} />
        </section>
      )}
      <section className="mt-4 space-y-2">
        <h4 className="text-sm font-semibold text-zinc-900">Responses</h4>
        <ul className="divide-y divide-zinc-100 rounded-md ring-1 ring-zinc-200">
          {Object.entries<Json>(op.responses).map(([status, raw]) => {
            const res = resolve(doc, raw);
            const ok = /^[23]/.test(status);
            const codes: string[] | undefined =
              res.content?.["application/json"]?.schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
            return (
              <li key={status} className="p-3">
                <div className="flex flex-wrap items-start gap-2">
                  <span
                    className={cn(
                      "inline-flex rounded-md px-1.5 py-0.5 font-mono text-xs font-semibold ring-1 ring-inset",
                      ok ? "bg-emerald-50 text-emerald-800 ring-emerald-300" : "bg-red-50 text-red-800 ring-red-300",
                    )}
                  >
                    {status}
                  </span>
                  <div className="min-w-0 flex-1">
                    {codes ? (
                      <ul className="space-y-1 text-xs text-zinc-700">
                        {codes.map((code) => (
                          <li key={code}>
                            <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-zinc-900">{code}</code>{" "}
                            <Inline
                              text={
                                (res.description as string)
                                  .split("\n\n")
                                  .find((d) => d.startsWith(`\`${code}\``))
                                  ?.replace(/^`[^`]+`: /, "") ?? ""
                              }
                            />
                          </li>
                        ))}
                      </ul>
                    ) : (
                      <Markdown text={res.description} headingLevel={3} />
                    )}
                  </div>
                </div>
                {ok && res.content && (
                  <details className="mt-2">
                    <summary className="cursor-pointer text-xs font-medium text-indigo-700">Body and example</summary>
                    <div className="mt-2">
                      <Content doc={doc} content={res.content} id={`${id} ${status}`} />
                    </div>
                  </details>
                )}
                {ok && Object.keys(res.headers ?? {}).length > 0 && (
                  <p className="mt-2 text-xs text-zinc-600">
                    Headers:{" "}
                    {Object.keys(res.headers).map((h, i) => (
                      <span key={h}>
                        {i > 0 && ", "}
                        <code className="font-mono">{h}</code>
                      </span>
                    ))}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      </section>
    </article>
  );
}

/** Operations by tag, in the document's order. */
function byTag(doc: OpenApiDocument) {
  const tags = (doc.tags as { name: string; description?: string }[]) ?? [];
  const ops: Op[] = Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path, op: item[method]! })),
  );
  return tags.map((tag) => ({ ...tag, ops: ops.filter((o) => (o.op.tags as string[])[0] === tag.name) }));
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function Contents({ groups }: { groups: ReturnType<typeof byTag> }) {
  return (
    <ol className="space-y-3 text-sm">
      <li>
        <a href="#overview" className="font-medium text-zinc-900 hover:text-indigo-700">
          Overview and error codes
        </a>
      </li>
      {groups.map((g) => (
        <li key={g.name}>
          <a href={`#${slug(g.name)}`} className="font-medium text-zinc-900 hover:text-indigo-700">
            {g.name}
          </a>
          <ul className="mt-1 space-y-0.5 border-l border-zinc-200 pl-3">
            {g.ops.map((o) => (
              <li key={o.op.operationId}>
                <a
                  href={`#${o.op.operationId}`}
                  className="flex items-baseline gap-1.5 text-zinc-700 hover:text-indigo-700"
                >
                  <span className="w-12 shrink-0 font-mono text-[11px] text-zinc-600 uppercase">{o.method}</span>
                  <span>{o.op.summary}</span>
                </a>
              </li>
            ))}
          </ul>
        </li>
      ))}
      <li>
        <a href="#schemas" className="font-medium text-zinc-900 hover:text-indigo-700">
          Schemas
        </a>
      </li>
    </ol>
  );
}

export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const groups = byTag(doc);
  const schemas = Object.entries<Json>((doc.components as Json).schemas);
  const info = doc.info as Json;
  return (
    <div className="mx-auto max-w-6xl">
      <div className="mb-6 flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <h1 className="text-xl font-semibold text-zinc-900">API reference</h1>
          <p className="mt-1 text-sm text-zinc-600">
            {info.title} {info.version} · OpenAPI {doc.openapi}
          </p>
        </div>
        <div className="flex flex-wrap gap-2">
          <a
            href="/api/openapi.json"
            className="inline-flex h-9 items-center rounded-md bg-white px-3 text-sm font-medium text-zinc-800 ring-1 ring-zinc-300 ring-inset hover:bg-zinc-50"
          >
            OpenAPI document (JSON)
          </a>
        </div>
      </div>
      <div className="lg:grid lg:grid-cols-[15rem_minmax(0,1fr)] lg:gap-8">
        <nav aria-label="API reference contents" className="mb-6 lg:mb-0">
          <details className="rounded-lg bg-white p-3 ring-1 ring-zinc-200 lg:hidden">
            <summary className="cursor-pointer text-sm font-medium text-zinc-900">Contents</summary>
            <div className="mt-3">
              <Contents groups={groups} />
            </div>
          </details>
          <div className="sticky top-20 hidden max-h-[calc(100vh-6rem)] overflow-y-auto pr-2 lg:block">
            <Contents groups={groups} />
          </div>
        </nav>
        <div className="min-w-0 space-y-10">
          <section id="overview" aria-labelledby="overview-title" className="scroll-mt-20 space-y-3">
            <h2 id="overview-title" className="text-lg font-semibold text-zinc-900">
              Overview
            </h2>
            <Markdown text={info.description} />
          </section>
          {groups.map((g) => (
            <section
              key={g.name}
              id={slug(g.name)}
              aria-labelledby={`${slug(g.name)}-title`}
              className="scroll-mt-20 space-y-4"
            >
              <div>
                <h2 id={`${slug(g.name)}-title`} className="text-lg font-semibold text-zinc-900">
                  {g.name}
                </h2>
                {g.description && <p className="mt-1 text-sm text-zinc-600">{g.description}</p>}
              </div>
              {g.ops.map((o) => (
                <Operation key={o.op.operationId} doc={doc} {...o} />
              ))}
            </section>
          ))}
          <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-20 space-y-4">
            <h2 id="schemas-title" className="text-lg font-semibold text-zinc-900">
              Schemas
            </h2>
            {schemas.map(([name, schema]) => (
              <article
                key={name}
                id={schemaAnchor(name)}
                aria-labelledby={`${schemaAnchor(name)}-title`}
                className="scroll-mt-20 space-y-2 rounded-lg bg-white p-4 ring-1 ring-zinc-200"
              >
                <h3 id={`${schemaAnchor(name)}-title`} className="font-mono text-sm font-semibold text-zinc-900">
                  {name}
                </h3>
                <p className="text-xs text-zinc-600">
                  <TypeOf
                    schema={{ ...schema, properties: undefined, ...(schema.properties ? { type: "object" } : {}) }}
                  />
                  {schema.description && (
                    <>
                      {" · "}
                      <Inline text={schema.description} />
                    </>
                  )}
                </p>
                {schema.enum && schema.enum.length > 8 && (
                  <p className="flex flex-wrap gap-1">
                    {(schema.enum as string[]).map((v) => (
                      <Badge key={v}>{v}</Badge>
                    ))}
                  </p>
                )}
                <FieldsTable schema={schema} label={`${name} fields`} />
              </article>
            ))}
          </section>
        </div>
      </div>
    </div>
  );
}
