/** TLS trust per connection and the HTTP client (plain Node). */
export { HttpClient, type HttpClientOptions, type HttpRequest, type HttpResponse } from './http-client';
export { createTlsOptions, caCertificates, normalizeFingerprint, pemCertificates, systemCaList, PinMismatchError, type TlsOptions } from './tls-options';
export { readPemFile } from './pem-file';
export { inspectCertificate, probeCertificate, describeCertificate, type ProbeOptions, type ProbedCertificate } from './probe';
export { transportError, timeoutError, pinMismatchError, type Endpoint } from './net-errors';
export { explainCertificateFailure, type CertificateProbe } from './certificate-failure';
