module github.com/cuzk/cuzk/bindings/go

go 1.19
