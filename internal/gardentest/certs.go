package gardentest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// certificates are the files of the aggregation layer: the front-proxy CA and client certificate kube-apiserver
// presents to the gardener-apiserver, and the gardener-apiserver's serving certificate.
type certificates struct {
	frontProxyCA, frontProxyClientCert, frontProxyClientKey string
	servingCert, servingKey                                 string
	servingCAPEM                                            []byte
	gardenerPort                                            int
}

func newCertificates(dir string) (*certificates, error) {
	c := &certificates{}
	proxyCA, proxyCAKey, err := newCA("front-proxy-ca")
	if err != nil {
		return nil, err
	}
	if c.frontProxyCA, err = writePEM(dir, "front-proxy-ca.crt", "CERTIFICATE", proxyCA.Raw); err != nil {
		return nil, err
	}
	c.frontProxyClientCert, c.frontProxyClientKey, err = issue(dir, "front-proxy-client", proxyCA, proxyCAKey, &x509.Certificate{
		Subject:     pkix.Name{CommonName: "front-proxy-client"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return nil, err
	}

	servingCA, servingCAKey, err := newCA("gardener-apiserver-ca")
	if err != nil {
		return nil, err
	}
	c.servingCAPEM = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: servingCA.Raw})
	c.servingCert, c.servingKey, err = issue(dir, "gardener-apiserver", servingCA, servingCAKey, &x509.Certificate{
		Subject:     pkix.Name{CommonName: "gardener-apiserver"},
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		DNSNames:    []string{"localhost", "gardener-apiserver.kube-system.svc"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

func newCA(name string) (*x509.Certificate, *ecdsa.PrivateKey, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, err
	}
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: name},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, nil, fmt.Errorf("creating CA %s: %w", name, err)
	}
	cert, err := x509.ParseCertificate(der)
	return cert, key, err
}

// issue signs template with the CA and writes name.crt and name.key.
func issue(dir, name string, ca *x509.Certificate, caKey *ecdsa.PrivateKey, template *x509.Certificate) (string, string, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return "", "", err
	}
	template.SerialNumber = big.NewInt(time.Now().UnixNano())
	template.NotBefore, template.NotAfter = time.Now().Add(-time.Hour), time.Now().Add(24*time.Hour)
	template.KeyUsage = x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment
	der, err := x509.CreateCertificate(rand.Reader, template, ca, &key.PublicKey, caKey)
	if err != nil {
		return "", "", fmt.Errorf("issuing %s: %w", name, err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return "", "", err
	}
	certPath, err := writePEM(dir, name+".crt", "CERTIFICATE", der)
	if err != nil {
		return "", "", err
	}
	keyPath, err := writePEM(dir, name+".key", "EC PRIVATE KEY", keyDER)
	return certPath, keyPath, err
}

func writePEM(dir, name, blockType string, der []byte) (string, error) {
	path := filepath.Join(dir, name)
	return path, os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: blockType, Bytes: der}), 0o600)
}
