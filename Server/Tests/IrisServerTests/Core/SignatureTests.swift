import Foundation
import IrisServerCore
import Testing

@Suite struct SignatureTests {
    static let vectorPath = "/rs:fill:300:400:0/g:sm/aHR0cDovL2V4YW1w/bGUuY29tL2ltYWdl/cy9jdXJpb3NpdHku/anBn.png"
    static let key = SigningKey(keyHex: "736563726574", saltHex: "68656C6C6F")!

    @Test func publishedVector() {
        let signature = URLSignature(keys: [Self.key])
        #expect(signature.sign(Self.vectorPath) == "oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8")
        #expect(signature.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.vectorPath))
    }

    @Test func publishedVectorTruncatedToEightBytes() {
        let signature = URLSignature(keys: [Self.key], size: 8)
        #expect(signature.sign(Self.vectorPath) == "oKfUtW34Dvo")
        #expect(signature.isValid("oKfUtW34Dvo", for: Self.vectorPath))
        // The full signature is not accepted where 8 bytes are configured, nor a shorter one.
        #expect(!signature.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.vectorPath))
        #expect(!signature.isValid("oKfUtW34", for: Self.vectorPath))
    }

    @Test func wrongSignaturePathOrKeyIsRefused() {
        let signature = URLSignature(keys: [Self.key])
        #expect(!signature.isValid("pKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.vectorPath))
        #expect(!signature.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.vectorPath + "x"))
        #expect(!signature.isValid("not base64!", for: Self.vectorPath))
        #expect(!signature.isValid("", for: Self.vectorPath))
        let other = URLSignature(keys: [SigningKey(keyHex: "6b6579", saltHex: "73616c74")!])
        #expect(!other.isValid("oKfUtW34Dvo2BGQehJFR4Nr0_rIjOtdtzJ3QFsUcXH8", for: Self.vectorPath))
    }

    @Test func everyRotatedKeyIsAccepted() {
        let old = SigningKey(keyHex: "6f6c64", saltHex: "")!
        let rotated = URLSignature(keys: [SigningKey(keyHex: "6e6577", saltHex: "abcd")!, old])
        let byOld = URLSignature(keys: [old]).sign("/w:10/plain/http://a/b.jpg")!
        #expect(rotated.isValid(byOld, for: "/w:10/plain/http://a/b.jpg"))
        #expect(rotated.isValid(rotated.sign("/w:10/plain/http://a/b.jpg")!, for: "/w:10/plain/http://a/b.jpg"))
    }

    @Test func keysMustBeHex() {
        #expect(SigningKey(keyHex: "zz", saltHex: "00") == nil)
        #expect(SigningKey(keyHex: "abc", saltHex: "00") == nil)
        #expect(SigningKey(keyHex: "", saltHex: "00") == nil)
    }

    @Test func base64URLRoundTripsWithoutPadding() {
        let bytes = Array("http://example.com/images/curiosity.jpg".utf8)
        let encoded = Base64URL.encode(bytes)
        #expect(!encoded.contains("=") && !encoded.contains("+") && !encoded.contains("/"))
        #expect(Base64URL.decode(encoded).map(Array.init) == bytes)
        #expect(Base64URL.decode("a") == nil)
        #expect(Base64URL.decode("ab+c") == nil)
    }
}
