// The gRPC face of datagen data (xq.v1.DataService): authenticates callers through the Coordinator and
// forwards to its datagen methods; downloads stream the chunk file.
#pragma once

#include "coordinator.h"
#include "xq/v1/datagen.grpc.pb.h"

namespace xq::coord {

class DataServiceImpl final : public v1::DataService::Service {
  public:
    explicit DataServiceImpl(Coordinator& coordinator) : coord_(coordinator) {}
    grpc::Status UploadChunk(grpc::ServerContext*, const v1::DataChunkUpload*, v1::DataChunkAck*) override;
    grpc::Status CompleteSlice(grpc::ServerContext*, const v1::CompleteSliceRequest*,
                               v1::CompleteSliceResponse*) override;
    grpc::Status ListChunks(grpc::ServerContext*, const v1::ListChunksRequest*,
                            v1::ListChunksResponse*) override;
    grpc::Status DownloadChunk(grpc::ServerContext*, const v1::DownloadChunkRequest*,
                               grpc::ServerWriter<v1::DataBytes>*) override;

  private:
    Coordinator& coord_;
};

}  // namespace xq::coord
