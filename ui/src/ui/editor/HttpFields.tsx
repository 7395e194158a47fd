import type { AuthForm, HttpForm } from "../../logic/actionForm";
import { HTTP_METHODS } from "../../logic/enums";
import { KeyValueEditor } from "./KeyValueEditor";
import { type Option, SecretField, SelectField, TextArea, TextField } from "./fields";

type Props = { prefix: string; value: HttpForm; onChange: (v: HttpForm) => void; stored: (path: string) => boolean };

const METHODS: Option[] = HTTP_METHODS.map((m) => [m, m] as const);

export function HttpFields({ prefix: p, value, onChange, stored }: Props) {
  const set = (patch: Partial<HttpForm>) => onChange({ ...value, ...patch });
  return (
    <>
      <div class="grid method-uri">
        <SelectField
          id={`${p}http-method`}
          label="Method"
          value={value.method}
          options={METHODS}
          onChange={(method) => set({ method })}
        />
        <TextField
          id={`${p}http-uri`}
          label="URL"
          type="url"
          value={value.uri}
          placeholder="https://example.com/hook"
          onInput={(uri) => set({ uri })}
        />
      </div>
      <KeyValueEditor
        id={`${p}http-headers`}
        legend="Headers"
        noun="Header"
        rows={value.headers}
        onChange={(headers) => set({ headers })}
      />
      <TextArea id={`${p}http-body`} label="Body" mono rows={4} value={value.body} onInput={(body) => set({ body })} />
      <AuthFields prefix={p} value={value.auth} onChange={(auth) => set({ auth })} stored={stored} />
    </>
  );
}

const AUTH: Option[] = [
  ["", "None"],
  ["Basic", "Basic (user name and password)"],
  ["ClientCertificate", "Client certificate (PFX)"],
  ["ActiveDirectoryOAuth", "Azure AD OAuth (client credentials)"],
];

function AuthFields({
  prefix: p,
  value,
  onChange,
  stored,
}: {
  prefix: string;
  value: AuthForm;
  onChange: (v: AuthForm) => void;
  stored: (path: string) => boolean;
}) {
  const set = (patch: Partial<AuthForm>) => onChange({ ...value, ...patch });
  const path = (field: string) => `request.authentication.${field}`;
  const options = value.type === "NotSpecified" ? [...AUTH, ["NotSpecified", "Not specified (none)"] as const] : AUTH;
  const cert = value.certInfo;
  return (
    <div class="subsection">
      <SelectField
        id={`${p}auth-type`}
        label="Authentication"
        value={value.type}
        options={options}
        onChange={(type) => set({ type })}
      />
      {value.type === "Basic" && (
        <div class="grid">
          <TextField
            id={`${p}auth-username`}
            label="User name"
            value={value.username}
            onInput={(username) => set({ username })}
          />
          <SecretField
            id={`${p}auth-password`}
            label="Password"
            value={value.password}
            stored={stored(path("password"))}
            onInput={(password) => set({ password })}
          />
        </div>
      )}
      {value.type === "ClientCertificate" && (
        <>
          <SecretField
            id={`${p}auth-pfx`}
            label="Certificate (PFX, base64)"
            multiline
            value={value.pfx}
            stored={stored(path("pfx"))}
            onInput={(pfx) => set({ pfx })}
          />
          <SecretField
            id={`${p}auth-cert-password`}
            label="Certificate password"
            value={value.certPassword}
            stored={stored(path("password"))}
            hint="Empty if the PFX has none."
            onInput={(certPassword) => set({ certPassword })}
          />
          {(cert.subject || cert.thumbprint) && (
            <p class="muted cert-info">
              Stored certificate: {cert.subject}{" "}
              {cert.thumbprint && (
                <>
                  · <code>{cert.thumbprint}</code>
                </>
              )}
              {cert.expires && <> · expires {cert.expires}</>}
            </p>
          )}
        </>
      )}
      {value.type === "ActiveDirectoryOAuth" && (
        <>
          <div class="grid">
            <TextField
              id={`${p}auth-tenant`}
              label="Tenant"
              value={value.tenant}
              placeholder="contoso.onmicrosoft.com"
              onInput={(tenant) => set({ tenant })}
            />
            <TextField
              id={`${p}auth-audience`}
              label="Audience"
              value={value.audience}
              placeholder="https://management.core.windows.net/"
              onInput={(audience) => set({ audience })}
            />
          </div>
          <div class="grid">
            <TextField
              id={`${p}auth-client-id`}
              label="Client id"
              value={value.clientId}
              onInput={(clientId) => set({ clientId })}
            />
            <SecretField
              id={`${p}auth-secret`}
              label="Client secret"
              value={value.secret}
              stored={stored(path("secret"))}
              onInput={(secret) => set({ secret })}
            />
          </div>
        </>
      )}
    </div>
  );
}
