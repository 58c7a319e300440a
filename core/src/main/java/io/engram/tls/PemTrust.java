package io.engram.tls;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/** TLS client settings that trust the CAs of a PEM file, or the JVM's own. */
public final class PemTrust {

    private PemTrust() {}

    /**
     * A context trusting every certificate in the PEM file {@code path}; the JVM's default context
     * when {@code path} is empty.
     */
    public static SSLContext context(String path) {
        try {
            if (path.isEmpty()) {
                return SSLContext.getDefault();
            }
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trustManagers(path).getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot use the CA certificates " + path + ": " + e, e);
        }
    }

    /** Trust managers trusting every certificate in the PEM file {@code path}. */
    public static TrustManagerFactory trustManagers(String path) {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            int n = 0;
            try (InputStream in = Files.newInputStream(Path.of(path))) {
                for (Certificate c :
                        CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                    trusted.setCertificateEntry("ca-" + n++, c);
                }
            }
            if (n == 0) {
                throw new IllegalArgumentException(path + " holds no PEM certificate");
            }
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            return tmf;
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    "cannot read the CA certificates " + path + ": " + e, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException(
                    "cannot use the CA certificates " + path + ": " + e, e);
        }
    }

    /** Parameters that also check the server's name against its certificate. */
    public static SSLParameters checkingHostName() {
        SSLParameters p = new SSLParameters();
        p.setEndpointIdentificationAlgorithm("HTTPS");
        return p;
    }
}
