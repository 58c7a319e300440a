package io.engram.services;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A throwaway certificate for 127.0.0.1 and its private key, made with the JDK's {@code keytool}
 * (no OpenSSL needed), as PEM files and as a PKCS12 key store (password {@link
 * #KEY_STORE_PASSWORD}): a server's TLS for tests, the certificate doubling as the CA a client
 * trusts.
 */
public record SelfSignedCertificate(Path certificate, Path privateKey, Path keyStore) {

    public static final String KEY_STORE_PASSWORD = "throwaway";

    private static final char[] PASS = KEY_STORE_PASSWORD.toCharArray();

    /**
     * Writes {@code <name>.crt}, {@code <name>.key} (mode 600) and {@code <name>.p12} under {@code
     * dir}.
     */
    public static SelfSignedCertificate create(Path dir, String name) {
        try {
            Files.createDirectories(dir);
            Path store = dir.resolve(name + ".p12");
            Files.deleteIfExists(store);
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process p =
                    new ProcessBuilder(
                                    List.of(
                                            keytool.toString(),
                                            "-genkeypair",
                                            "-alias",
                                            name,
                                            "-keyalg",
                                            "RSA",
                                            "-keysize",
                                            "2048",
                                            "-dname",
                                            "CN=127.0.0.1",
                                            "-ext",
                                            "san=ip:127.0.0.1",
                                            "-validity",
                                            "7",
                                            "-storetype",
                                            "PKCS12",
                                            "-keystore",
                                            store.toString(),
                                            "-storepass",
                                            new String(PASS)))
                            .redirectErrorStream(true)
                            .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new ServiceStartException("keytool failed: " + out);
            }
            KeyStore ks = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(store)) {
                ks.load(in, PASS);
            }
            Key key = ks.getKey(name, PASS);
            Path crt = dir.resolve(name + ".crt");
            Path pem = dir.resolve(name + ".key");
            Files.writeString(crt, pem("CERTIFICATE", ks.getCertificate(name).getEncoded()));
            Files.deleteIfExists(pem);
            Files.createFile(
                    pem,
                    PosixFilePermissions.asFileAttribute(
                            PosixFilePermissions.fromString("rw-------")));
            Files.writeString(pem, pem("PRIVATE KEY", key.getEncoded()));
            return new SelfSignedCertificate(crt, pem, store);
        } catch (IOException | GeneralSecurityException e) {
            throw new ServiceStartException("cannot make a certificate under " + dir, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ServiceStartException("interrupted making a certificate");
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN "
                + type
                + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                        .encodeToString(der)
                + "\n-----END "
                + type
                + "-----\n";
    }
}
