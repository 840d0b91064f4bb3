extension MIMETypes {
    /// Common types in `mime.types` format, for systems without `/etc/mime.types`.
    ///
    /// Entries follow the IANA registry and Debian's table, except where Apple's type database (which
    /// AFNetworking consults) differs and AFNetworking's tests pin Apple's answer: `.cer` is
    /// `application/x-x509-ca-cert` here.
    static let builtInTable = """
        application/gzip                gz
        application/java-archive        jar
        application/javascript          js mjs
        application/json                json
        application/ld+json             jsonld
        application/msword              doc
        application/octet-stream        bin exe dll so dmg iso img
        application/ogg                 ogx
        application/pdf                 pdf
        application/pkcs12              p12 pfx
        application/pkcs7-mime          p7m p7c
        application/pkix-crl            crl
        application/postscript          ps eps ai
        application/rtf                 rtf
        application/vnd.ms-excel        xls
        application/vnd.ms-powerpoint   ppt
        application/vnd.openxmlformats-officedocument.presentationml.presentation  pptx
        application/vnd.openxmlformats-officedocument.spreadsheetml.sheet          xlsx
        application/vnd.openxmlformats-officedocument.wordprocessingml.document    docx
        application/vnd.oasis.opendocument.text           odt
        application/vnd.oasis.opendocument.spreadsheet    ods
        application/wasm                wasm
        application/x-7z-compressed     7z
        application/x-bzip2             bz2
        application/x-sh                sh
        application/x-tar               tar
        application/x-x509-ca-cert      cer crt der
        application/x-xz                xz
        application/xhtml+xml           xhtml xht
        application/xml                 xml xsl
        application/yaml                yaml yml
        application/zip                 zip
        application/zstd                zst
        audio/aac                       aac
        audio/flac                      flac
        audio/midi                      mid midi
        audio/mp4                       m4a
        audio/mpeg                      mp3 mpga
        audio/ogg                       oga ogg opus
        audio/wav                       wav
        audio/webm                      weba
        font/otf                        otf
        font/ttf                        ttf
        font/woff                       woff
        font/woff2                      woff2
        image/avif                      avif
        image/bmp                       bmp
        image/gif                       gif
        image/heic                      heic
        image/jpeg                      jpg jpeg jpe
        image/png                       png
        image/svg+xml                   svg svgz
        image/tiff                      tif tiff
        image/vnd.microsoft.icon        ico
        image/webp                      webp
        text/calendar                   ics
        text/css                        css
        text/csv                        csv
        text/html                       html htm
        text/markdown                   md markdown
        text/plain                      txt text log conf
        text/tab-separated-values       tsv
        text/vcard                      vcf
        video/mp2t                      ts
        video/mp4                       mp4 m4v
        video/mpeg                      mpeg mpg
        video/ogg                       ogv
        video/quicktime                 mov qt
        video/webm                      webm
        video/x-matroska                mkv
        video/x-msvideo                 avi
        """
}
